import { type PositionView, positionMessages } from '@gridbot/shared';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useClosePosition } from '../api/positions';
import { formatQuantity, formatUsdt } from '../lib/amounts';

interface ClosePositionDialogProps {
  /** The position to close; null keeps the dialog shut. */
  position: PositionView | null;
  onClose: () => void;
}

/**
 * Asks before closing: a close is a market sale at whatever the price is now and cannot be undone, so the
 * dialog says what is sold, how, and what comes back.
 */
export function ClosePositionDialog({ position, onClose }: ClosePositionDialogProps) {
  const close = useClosePosition();
  const confirm = () => {
    if (!position) return;
    close.mutateAsync(position.symbol).then(
      (reply) => {
        toast.success(reply?.message || positionMessages.positionClosed);
        onClose();
      },
      (error: unknown) => {
        toast.error(errorMessage(error, positionMessages.closeFailed));
        onClose();
      },
    );
  };
  return (
    <Modal
      open={position !== null}
      onClose={close.isPending ? undefined : onClose}
      title={position ? `Close the ${position.symbol} position?` : 'Close position?'}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={close.isPending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirm} loading={close.isPending}>
            {close.isPending ? 'Closing...' : 'Close position'}
          </Button>
        </>
      }
    >
      {position ? (
        <p className="text-sm text-muted">
          Sells <span className="font-semibold text-fg">{formatQuantity(position.quantity)}</span>{' '}
          {position.symbol} at the market price with a reduce-only order, so nothing new is opened. Its margin
          of <span className="font-semibold text-fg">{formatUsdt(position.margin) ?? '0.00'} USDT</span>{' '}
          returns to your futures wallet with the position's profit or loss, less the fee.
          {position.bot ? ` The position was left by ${position.bot.name}.` : ''}
        </p>
      ) : null}
    </Modal>
  );
}
