import { clsx } from 'clsx';
import type { CSSProperties } from 'react';

const HUES = [210, 150, 35, 280, 0, 190, 95, 320, 55, 250];

/** A coloured disc with the asset's initial: tells rows apart at a glance without loading coin logos. */
export function AssetAvatar({ asset, className }: { asset: string; className?: string }) {
  const hue = HUES[[...asset].reduce((sum, char) => sum + char.charCodeAt(0), 0) % HUES.length];
  // Its hue, deep enough on the light theme and light enough on the dark one for the letters' 4.5:1.
  const style = { '--avatar-hue': hue } as CSSProperties;
  return (
    <span
      aria-hidden="true"
      style={style}
      className={clsx(
        'inline-flex size-8 shrink-0 items-center justify-center rounded-full font-bold',
        'bg-[hsl(var(--avatar-hue)_70%_50%/0.16)] text-[hsl(var(--avatar-hue)_80%_22%)] dark:text-[hsl(var(--avatar-hue)_85%_75%)]',
        asset.length > 3 ? 'text-[0.5625rem]' : 'text-[0.6875rem]',
        className,
      )}
    >
      {asset.slice(0, 4)}
    </span>
  );
}
