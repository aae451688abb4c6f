import { walletMessages } from '@gridbot/shared';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useDisconnectApiKeys } from '../api/api-keys';

interface DisconnectDialogProps {
  open: boolean;
  onClose: () => void;
}

/** docs/spec/01-core-screens.md API Setting: Disconnect asks first; docs/spec/01-core-screens.md §8 gives the three outcomes. */
export function DisconnectDialog({ open, onClose }: DisconnectDialogProps) {
  const disconnect = useDisconnectApiKeys();
  const [needsCode, setNeedsCode] = useState(false);
  const [code, setCode] = useState('');

  const confirm = () =>
    disconnect.mutate(code || undefined, {
      onSuccess: () => {
        toast.success(walletMessages.disconnected);
        setCode('');
        onClose();
      },
      onError: (error) => {
        // Two-factor sign-in on: the dialog stays open and asks for the code.
        if (isApiError(error) && error.body?.twoFactorRequired === true) {
          setNeedsCode(true);
          toast.error(error.message);
          return;
        }
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
      {needsCode ? (
        <Input
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={11}
          containerClassName="mt-4"
          className="font-mono tracking-widest"
          value={code}
          onChange={(event) => setCode(event.target.value.trim())}
        />
      ) : null}
    </Modal>
  );
}
