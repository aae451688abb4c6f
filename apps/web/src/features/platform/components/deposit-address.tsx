import { platformMessages as m, USDT_LISTEN_SECONDS_DEFAULT } from '@gridbot/shared';
import { useEffect } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { ClockIcon } from '../../../components/ui/icons';
import { QrCode } from '../../../components/ui/qr-code';
import { toast } from '../../../lib/toast';
import { platformErrorMessage } from '../api/platform-client';
import { useStartListening, useSyncDeposits } from '../api/platform-queries';
import { useListenWindow } from '../hooks/use-listen-window';
import { formatClock } from '../lib/platform-format';

interface DepositAddressProps {
  userId: string;
  address: string;
  onAccountChanged: () => void;
  /** Tells the page to poll while the window is open. */
  onListeningChange: (listening: boolean) => void;
}

/** docs/spec/02-bots-wallet-account.md Wallet Deposit: the address with its QR code and copy, 'make payment', 'sync status', countdown. */
export function DepositAddress({
  userId,
  address,
  onAccountChanged,
  onListeningChange,
}: DepositAddressProps) {
  const listen = useStartListening();
  const sync = useSyncDeposits(onAccountChanged);
  const listenWindow = useListenWindow(userId);

  useEffect(() => onListeningChange(listenWindow.listening), [listenWindow.listening, onListeningChange]);

  const makePayment = async () => {
    try {
      const { data, msg } = await listen.mutateAsync();
      listenWindow.open(data?.usdtListenExpiredInSeconds ?? USDT_LISTEN_SECONDS_DEFAULT);
      toast.success(msg || m.listening);
    } catch (error) {
      toast.error(platformErrorMessage(error, 'Could not start listening. Please try again.'));
    }
  };

  const syncStatus = async () => {
    try {
      const { data, msg } = await sync.mutateAsync();
      toast.success(msg || m.synced(data?.credited ?? 0));
    } catch (error) {
      toast.error(platformErrorMessage(error, 'Could not sync the deposit status. Please try again.'));
    }
  };

  return (
    <Card className="grid grid-cols-1 gap-6 p-5 md:grid-cols-[auto_minmax(0,1fr)] md:items-center">
      <div className="mx-auto w-48 rounded-xl border border-line bg-white p-2 sm:w-52">
        <QrCode value={address} label="QR code of your deposit address" className="w-full" />
      </div>
      <div className="min-w-0 space-y-4">
        <div>
          <h2 className="text-sm font-medium text-muted">Your deposit address (BEP-20)</h2>
          <div className="mt-2 flex items-center gap-2">
            <code className="min-w-0 flex-1 rounded-lg border border-line bg-surface-2/60 px-3 py-2 font-mono text-xs break-all text-fg sm:text-sm">
              {address}
            </code>
            <CopyButton value={address} label="Copy address" successMessage={m.addressCopied} />
          </div>
          <p className="mt-2 text-xs text-muted">
            Send only USDT, IFC or IFX on the BNB Smart Chain (BEP-20). Tokens sent on another network are
            lost.
          </p>
        </div>
        {listenWindow.listening ? (
          <div
            role="timer"
            aria-label="Listening for your deposit"
            className="flex items-center gap-3 rounded-lg border border-primary/30 bg-primary-soft px-4 py-3"
          >
            <span className="relative flex size-2.5">
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-primary opacity-70" />
              <span className="relative inline-flex size-2.5 rounded-full bg-primary" />
            </span>
            <p className="text-sm text-fg">
              {m.listening} Time left{' '}
              <span className="font-mono text-base font-bold tabular-nums">
                {formatClock(listenWindow.secondsLeft)}
              </span>
            </p>
          </div>
        ) : (
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => void makePayment()} loading={listen.isPending} className="capitalize">
              make payment
            </Button>
            <Button
              variant="outline"
              onClick={() => void syncStatus()}
              loading={sync.isPending}
              className="capitalize"
            >
              sync status
            </Button>
          </div>
        )}
        {listenWindow.listening ? (
          <p className="flex items-center gap-1.5 text-xs text-muted">
            <ClockIcon className="size-3.5" />
            Deposits are credited after the network confirms them; this page updates by itself.
          </p>
        ) : null}
      </div>
    </Card>
  );
}
