import type { StartBlocker } from '@gridbot/shared';
import { Link } from 'react-router';
import { AlertIcon } from './icons';

/**
 * What would refuse the start (GET /api/startcheck), each with the page that fixes it, shown above the Start
 * BOT and Start Cycle forms before anything is filled in. `title` names what cannot start.
 */
export function StartBlockers({
  blockers,
  title,
  actions,
}: {
  blockers: readonly StartBlocker[];
  title: string;
  /**
   * By blocker code: what its link does in place instead of leaving the page (Start BOT's "Transfer" opens the
   * transfer dialog over the filled-in form).
   */
  actions?: Partial<Record<string, () => void>>;
}) {
  if (blockers.length === 0) return null;
  return (
    <div
      role="alert"
      data-testid="start-blockers"
      className="space-y-2 rounded-xl border border-warn/40 bg-warn/10 p-4 text-sm"
    >
      <p className="flex items-center gap-2 font-semibold text-fg">
        <AlertIcon className="size-5 shrink-0 text-warn" />
        {title}
      </p>
      <ul className="space-y-1.5 pl-7 text-muted">
        {blockers.map((b) => (
          <li key={b.code}>
            {b.message}
            {b.link ? (
              <>
                {' '}
                {actions?.[b.code] ? (
                  <button
                    type="button"
                    onClick={actions[b.code]}
                    className="cursor-pointer font-semibold text-primary underline underline-offset-2"
                  >
                    {b.link.label}
                  </button>
                ) : (
                  <Link to={b.link.to} className="font-semibold text-primary underline underline-offset-2">
                    {b.link.label}
                  </Link>
                )}
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A strategy that can only lose on fees: shown, not blocking (the user may still choose it). */
export function FeeWarning({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return (
    <p
      role="status"
      data-testid="fee-warning"
      className="flex items-start gap-2 rounded-lg bg-warn/10 p-3 text-sm text-fg"
    >
      <AlertIcon className="mt-0.5 size-4 shrink-0 text-warn" />
      <span>{text}</span>
    </p>
  );
}
