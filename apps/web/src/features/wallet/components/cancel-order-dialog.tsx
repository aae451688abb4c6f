import { type OpenOrderView, openOrderMessages } from '@gridbot/shared';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useCancelOrder } from '../api/open-orders';
import { formatQuantity } from '../lib/amounts';

interface CancelOrderDialogProps {
  /** The order to cancel; null keeps the dialog shut. */
  order: OpenOrderView | null;
  onClose: () => void;
}

/** Asks before canceling: what the order was to buy or sell, and at what price, is gone once it is canceled. */
export function CancelOrderDialog({ order, onClose }: CancelOrderDialogProps) {
  const cancel = useCancelOrder();
  const confirm = () => {
    if (!order) return;
    const { market, symbol, clientOrderId } = order;
    cancel.mutateAsync({ market, symbol, clientOrderId }).then(
      (reply) => {
        toast.success(reply?.message || openOrderMessages.orderCanceled);
        onClose();
      },
      (error: unknown) => {
        toast.error(errorMessage(error, openOrderMessages.cancelFailed));
        onClose();
      },
    );
  };
  return (
    <Modal
      open={order !== null}
      onClose={cancel.isPending ? undefined : onClose}
      title={order ? `Cancel the ${order.symbol} order?` : 'Cancel order?'}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={cancel.isPending}>
            Keep order
          </Button>
          <Button variant="danger" onClick={confirm} loading={cancel.isPending}>
            {cancel.isPending ? 'Canceling...' : 'Cancel order'}
          </Button>
        </>
      }
    >
      {order ? (
        <p className="text-sm text-muted">
          Removes the {order.market === 'future' ? 'futures' : 'spot'} {order.side} order for{' '}
          <span className="font-semibold text-fg">{formatQuantity(order.quantity)}</span> {order.symbol}
          {order.price === null ? ' at the market price' : ' at '}
          {order.price === null ? null : (
            <span className="font-semibold text-fg">{formatQuantity(order.price)}</span>
          )}{' '}
          from your exchange account. What it holds becomes free again.
          {order.bot ? ` The order was left by ${order.bot.name}.` : ''}
        </p>
      ) : null}
    </Modal>
  );
}
