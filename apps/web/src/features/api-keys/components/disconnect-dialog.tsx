import { walletMessages } from '@gridbot/shared';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { errorMessage } from '../../../lib/api-client';
import { useDisconnectApiKeys } from '../api/api-keys';

interface DisconnectDialogProps {
  open: boolean;
  onClose: () => void;
}

/** docs/spec/01-core-screens.md API Setting: Disconnect asks first; docs/spec/01-core-screens.md §8 gives the three outcomes. */
export function DisconnectDialog({ open, onClose }: DisconnectDialogProps) {
  const disconnect = useDisconnectApiKeys();

  const confirm = () =>
    disconnect.mutate(undefined, {
      onSuccess: () => {
        toast.success(walletMessages.disconnected);
        onClose();
      },
      onError: (error) => {
        const message = errorMessage(error, walletMessages.disconnectFailed);
        toast.error(
          message === walletMessages.disconnectWhileRunning ? message : walletMessages.disconnectFailed,
        );
        onClose();
      },
    });

  return (
    <Modal
      open={open}
      onClose={disconnect.isPending ? undefined : onClose}
      size="sm"
      title="Disconnect API keys?"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={disconnect.isPending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirm} loading={disconnect.isPending}>
            {disconnect.isPending ? 'Disconnecting...' : 'Disconnect'}
          </Button>
        </>
      }
    >
      <p className="text-sm text-muted">
        GridBot forgets your API key and secret, so it can no longer read your balances or trade for you. Your
        exchange account and its funds are not touched, and you can connect again at any time.
      </p>
    </Modal>
  );
}
