import type { LiveCycle } from '@gridbot/shared';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { formatPair, formatPrice } from '../../../lib/format';

interface StopCycleDialogProps {
  open: boolean;
  /** Kept while the dialog closes, so its content does not vanish during the exit transition. */
  cycle: LiveCycle | null;
  onClose: () => void;
  /** Which button is busy, if any. */
  pending: 'sell' | 'stop' | null;
  onStop: (sell: boolean) => void;
}

/** docs/spec/02-bots-wallet-account.md §4 Confirm Stop Cycle: 'Stop & Sell' and 'Stop' while a bought position is held, else 'Stop'. */
export function StopCycleDialog({ open, cycle, onClose, pending, onStop }: StopCycleDialogProps) {
  const holding = cycle !== null && cycle.last_bought_price !== null;
  const pair = cycle ? formatPair(cycle.pair) : '';
  const base = cycle ? cycle.pair.replace(/USDT$/, '') : '';
  return (
    <Modal
      open={open}
      onClose={pending ? undefined : onClose}
      title="Confirm Stop Cycle"
      size="sm"
      footer={
        <>
          <Button
            variant={holding ? 'outline' : 'danger'}
            onClick={() => onStop(false)}
            loading={pending === 'stop'}
            disabled={pending !== null}
          >
            Stop
          </Button>
          {holding ? (
            <Button
              variant="danger"
              onClick={() => onStop(true)}
              loading={pending === 'sell'}
              disabled={pending !== null}
            >
              Stop &amp; Sell
            </Button>
          ) : null}
        </>
      }
    >
      {cycle ? (
        <div className="space-y-4 text-sm">
          <p className="text-fg">
            {holding
              ? `This ${pair} cycle holds ${base} bought at ${formatPrice(Number(cycle.last_bought_price))}. Stop it and sell at the current price, or stop it and keep what it bought?`
              : `Do you want to stop this ${pair} cycle? It holds nothing, so there is nothing to sell.`}
          </p>
          <p className="rounded-lg border border-warn/30 bg-warn/10 p-3 text-xs text-fg">
            Note: after stopping, the cycle takes no new trades. It moves to the Cycle tab of History.
          </p>
        </div>
      ) : null}
    </Modal>
  );
}
