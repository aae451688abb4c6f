import { useTransferFigures } from '../hooks/use-transfer-figures';
import { TransferModal } from './transfer-modal';

/**
 * Internal Transfers with its own figures, for screens other than the Wallet Dashboard: Start BOT's
 * "Transfer" opens it over the form, so the form is still filled in when it closes.
 */
export function TransferDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { spotTransferable, futuresTransferable, held } = useTransferFigures();
  return (
    <TransferModal
      open={open}
      onClose={onClose}
      transferable={{ spot: spotTransferable, futures: futuresTransferable }}
      held={held}
    />
  );
}
