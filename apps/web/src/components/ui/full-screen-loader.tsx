import { LogoMark } from './logo';

/** docs/spec/01-core-screens.md Shell: a full-screen loader whose logo scales every 0.35 s. */
export function FullScreenLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <div
      role="status"
      aria-label={label}
      className="fixed inset-0 z-50 flex items-center justify-center bg-canvas"
    >
      <LogoMark className="size-14 animate-logo-pulse" />
    </div>
  );
}
