import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';

interface GridStopDialogProps {
  open: boolean;
  onClose: () => void;
  symbol: string;
  future: boolean;
  /** Which button is busy, if any. */
  pending: 'sell' | 'stop' | null;
  onStop: (sell: boolean) => void;
}

/** Stop a grid: cancel every order, and with the second button also sell the coin (futures: close the position). */
export function GridStopDialog({ open, onClose, symbol, future, pending, onStop }: GridStopDialogProps) {
  const base = symbol.replace(/USDT$/, '');
  return (
    <Modal
      open={open}
      onClose={pending ? undefined : onClose}
      title="Stop this grid?"
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
            {future ? 'Stop & close position' : `Stop & sell ${base}`}
          </Button>
        </>
      }
    >
      <p className="text-sm text-fg">
        Every resting order is cancelled.{' '}
        {future
          ? 'Stop keeps the position open; Stop & close position closes it at market.'
          : `Stop keeps the ${base} the grid holds; Stop & sell sells it at market.`}
      </p>
    </Modal>
  );
}
