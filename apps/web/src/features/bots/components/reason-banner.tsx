import type { BotReason } from '@gridbot/shared';
import { Button } from '../../../components/ui/button';
import { AlertIcon } from '../../../components/ui/icons';

/**
 * Why a bot stopped, or why it is paused at its own pause price, with the actions that let it trade again:
 * Resume now (confirmed in a dialog that says what it does) or new price limits. The words come from
 * `botReasonOf` (shared), the same as on the dashboard card and in History; a pause the runtime made is the
 * HaltedBanner's, which carries its own Resume.
 */
export function ReasonBanner({
  reason,
  onEditLimits,
  onResume,
}: {
  reason: BotReason;
  onEditLimits?: () => void;
  onResume?: () => void;
}) {
  const paused = reason.action === 'edit_limits';
  return (
    <div
      role="status"
      data-testid="bot-reason"
      className={
        paused
          ? 'flex flex-wrap items-start gap-3 rounded-xl border border-warn/40 bg-warn/10 p-4 text-sm'
          : 'flex flex-wrap items-start gap-3 rounded-xl border border-line bg-surface-2 p-4 text-sm'
      }
    >
      <AlertIcon
        className={paused ? 'mt-0.5 size-5 shrink-0 text-warn' : 'mt-0.5 size-5 shrink-0 text-muted'}
      />
      <div className="min-w-0 flex-1 basis-64">
        <p className="font-semibold text-fg">{paused ? 'The bot is paused' : 'Why this bot stopped'}</p>
        <p className="mt-0.5 text-muted">{reason.text}</p>
      </div>
      {paused && (onEditLimits || onResume) ? (
        <div className="flex flex-wrap gap-2">
          {onEditLimits ? (
            <Button variant="outline" size="sm" onClick={onEditLimits}>
              Edit price limits
            </Button>
          ) : null}
          {onResume ? (
            <Button size="sm" onClick={onResume}>
              Resume
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
