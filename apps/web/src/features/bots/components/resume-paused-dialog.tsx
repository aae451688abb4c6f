import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { formatPrice } from '../../../lib/format';
import { toNumber } from '../lib/bot-format';

interface ResumePausedDialogProps {
  open: boolean;
  onClose: () => void;
  /** Pair such as BTCUSDT. */
  pair: string;
  livePrice: number | string | null | undefined;
  pausePrice: number | string | null | undefined;
  restartPrice: number | string | null | undefined;
  pending: boolean;
  onResume: () => void;
}

/**
 * Confirm Resume of a bot its pause price paused: what the bot does once resumed, in the engine's terms
 * (`resumePaused`): Live at once, grid 1 bought at the market price, the pause and restart prices removed.
 */
export function ResumePausedDialog(props: ResumePausedDialogProps) {
  const { open, onClose, pair, pending, onResume } = props;
  const live = toNumber(props.livePrice);
  const pause = toNumber(props.pausePrice);
  const restart = toNumber(props.restartPrice);
  const limits = [
    pause ? `pause price ${formatPrice(pause)}` : null,
    restart ? `restart price ${formatPrice(restart)}` : null,
  ].filter((text): text is string => text !== null);
  return (
    <Modal
      open={open}
      onClose={pending ? undefined : onClose}
      title="Resume the bot now?"
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button onClick={onResume} loading={pending}>
            Resume now
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-fg" data-testid="resume-paused-text">
        <p>
          The bot goes Live at once: it buys grid 1 of {pair.replace(/USDT$/, '')} at the market price
          {live ? ` (now ${formatPrice(live)} USDT)` : ''} and trades its grids from there, without waiting
          for the price to fall to a restart price.
        </p>
        {limits.length > 0 ? (
          <p className="rounded-lg border border-warn/30 bg-warn/10 p-3 text-xs">
            Its {limits.join(' and ')} {limits.length > 1 ? 'are' : 'is'} removed with the pause{' '}
            {limits.length > 1 ? 'they' : 'it'} made: near the pause price the bot would sell and pause again.
            Set new price limits in Bot details after it resumes. The stoploss price stays.
          </p>
        ) : null}
      </div>
    </Modal>
  );
}
