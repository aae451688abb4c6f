/** A bot in these states still trades: what it holds on the exchange is not the user's to close or cancel. */
const RUNNING = new Set(['Live', 'Pause', 'Stopping']);

export const isRunning = (status: string) => RUNNING.has(status);

/** One labelled figure of a position or order row. */
export function Figure({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="font-semibold text-fg tabular-nums">{children}</dd>
    </div>
  );
}
