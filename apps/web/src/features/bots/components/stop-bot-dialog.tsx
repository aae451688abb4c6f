import { clsx } from 'clsx';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { formatSignedUsd } from '../lib/bot-format';

interface StopBotDialogProps {
  open: boolean;
  onClose: () => void;
  /** Pair such as BTCUSDT. */
  pair: string;
  category: 'Spot' | 'Future';
  /** Approximate PnL if everything were sold at the current price. */
  approxPnl: number | null;
  /** Which button is busy, if any. */
  pending: 'sell' | 'stop' | null;
  onStop: (sell: boolean) => void;
}

/** docs/spec/02-bots-wallet-account.md Confirm Stop Bot: Future closes the position, Spot sells what the bot bought; or just stop. */
export function StopBotDialog({
  open,
  onClose,
  pair,
  category,
  approxPnl,
  pending,
  onStop,
}: StopBotDialogProps) {
  const future = category === 'Future';
  const positive = approxPnl !== null && approxPnl > 0;
  return (
    <Modal
      open={open}
      onClose={pending ? undefined : onClose}
      title="Confirm Stop Bot"
      size="sm"
      footer={
        <>
          <Button
            variant="outline"
            onClick={() => onStop(false)}
            loading={pending === 'stop'}
            disabled={pending !== null}
          >
            Stop
          </Button>
          <Button
            variant="danger"
            onClick={() => onStop(true)}
            loading={pending === 'sell'}
            disabled={pending !== null}
          >
            {future ? 'Stop & Close Position' : `Stop & sell ${pair}`}
          </Button>
        </>
      }
    >
      <div className="space-y-4 text-sm">
        <p className="text-fg">
          {future
            ? 'Do you want to stop the bot and close its position?'
            : `Do you want to stop the bot, or stop it and sell the ${pair.replace(/USDT$/, '')} bought by the bot?`}
        </p>
        <div className="flex items-center justify-between rounded-lg bg-surface-2 px-4 py-3">
          <span className="text-muted">Approx. PnL if sold at the current price</span>
          <span
            data-testid="approx-pnl"
            className={clsx('text-base font-bold tabular-nums', positive ? 'text-up' : 'text-down')}
          >
            {approxPnl === null ? '—' : formatSignedUsd(approxPnl)}
          </span>
        </div>
        <p className="rounded-lg border border-warn/30 bg-warn/10 p-3 text-xs text-fg">
          Note: after stopping, the system takes no new trades for this bot. If you start it again later, it
          works as a fresh bot.
        </p>
      </div>
    </Modal>
  );
}
