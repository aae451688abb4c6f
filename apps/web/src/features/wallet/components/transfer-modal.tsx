import { walletMessages } from '@gridbot/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { ArrowUpDownIcon } from '../../../components/ui/icons';
import { Modal } from '../../../components/ui/modal';
import { NumberInput } from '../../../components/ui/number-input';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { type TransferDirection, useTransfer } from '../api/wallet-actions';
import { formatUsdt } from '../lib/amounts';
import { type TransferFormInput, type TransferFormOutput, transferFormSchema } from '../lib/wallet-forms';
import { AmountButton } from './amount-button';

interface TransferModalProps {
  open: boolean;
  onClose: () => void;
  /** Transferable USDT of each wallet (decimal strings), undefined while unknown. */
  transferable: { spot: string | undefined; futures: string | undefined };
  /** What holds the rest of each wallet's USDT, in words (bots' reserves, positions' margin). */
  held: { spot: string[]; futures: string[] };
}

const WALLET_NAMES = { SpotToFutures: ['Spot', 'Futures'], FuturesToSpot: ['Futures', 'Spot'] } as const;

function WalletRow({ label, wallet, testId }: { label: string; wallet: string; testId: string }) {
  return (
    <div className="flex items-center gap-3 px-4 py-3">
      <span className="w-12 shrink-0 text-xs font-semibold uppercase tracking-wide text-muted">{label}</span>
      <span data-testid={testId} className="font-semibold text-fg">
        {wallet}
      </span>
    </div>
  );
}

/** docs/spec/02-bots-wallet-account.md Internal Transfers: USDT between spot and futures, never above the source's transferable USDT. */
export function TransferModal({ open, onClose, transferable, held }: TransferModalProps) {
  const [direction, setDirection] = useState<TransferDirection>('SpotToFutures');
  const transfer = useTransfer();
  const source = direction === 'SpotToFutures' ? transferable.spot : transferable.futures;
  const resolver = useMemo(() => zodResolver(transferFormSchema(source)), [source]);
  const form = useForm<TransferFormInput, unknown, TransferFormOutput>({
    resolver,
    mode: 'onChange',
    defaultValues: { amount: '' },
  });
  const { errors } = form.formState;
  const [from, to] = WALLET_NAMES[direction];
  const shownSource = formatUsdt(source);
  const heldBy = direction === 'SpotToFutures' ? held.spot : held.futures;

  const close = () => {
    form.reset();
    setDirection('SpotToFutures');
    onClose();
  };

  const switchDirection = () => {
    setDirection((d) => (d === 'SpotToFutures' ? 'FuturesToSpot' : 'SpotToFutures'));
  };

  // A new source (direction switched, balances refreshed): check a typed amount against it again.
  useEffect(() => {
    if (source !== undefined && form.getValues('amount')) void form.trigger('amount');
  }, [source, form]);

  const onSubmit = form.handleSubmit(({ amount }) =>
    transfer.mutateAsync({ direction, amount }).then(
      (reply) => {
        toast.success(reply?.message || walletMessages.transferSuccessful);
        close();
      },
      (error: unknown) => {
        toast.error(errorMessage(error, walletMessages.transferFailed));
      },
    ),
  );

  return (
    <Modal
      open={open}
      onClose={transfer.isPending ? undefined : close}
      title="Internal Transfers"
      description="Move USDT between your spot and futures wallets."
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={transfer.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="transfer-form" loading={transfer.isPending} disabled={!source}>
            {transfer.isPending ? 'Transferring...' : 'Confirm'}
          </Button>
        </>
      }
    >
      <form id="transfer-form" noValidate onSubmit={onSubmit} className="space-y-5">
        <div className="relative rounded-xl border border-line bg-surface-2/40">
          <WalletRow label="From" wallet={from} testId="transfer-from" />
          <div className="border-t border-line" />
          <WalletRow label="To" wallet={to} testId="transfer-to" />
          <button
            type="button"
            onClick={switchDirection}
            aria-label="Switch direction"
            title="Switch direction"
            className="absolute top-1/2 right-3 flex size-9 -translate-y-1/2 items-center justify-center rounded-full border border-line bg-surface text-primary shadow-sm transition-transform duration-200 hover:rotate-180 hover:bg-surface-2"
          >
            <ArrowUpDownIcon className="size-4.5" />
          </button>
        </div>

        <div className="flex items-center justify-between rounded-lg border border-line px-3 py-2.5 text-sm">
          <span className="text-muted">Coin</span>
          <span className="font-semibold text-fg">USDT</span>
        </div>

        <NumberInput
          label="Amount"
          placeholder="0.00"
          className="pr-16 tabular-nums"
          error={errors.amount?.message}
          labelAside={
            <span className="text-xs text-muted">
              Transferable:{' '}
              <span data-testid="transferable" className="font-semibold text-fg tabular-nums">
                {shownSource ?? 'NO DATA'}
              </span>{' '}
              USDT
            </span>
          }
          end={
            <AmountButton
              disabled={!source}
              onClick={() => form.setValue('amount', source ?? '', { shouldValidate: true })}
            >
              MAX
            </AmountButton>
          }
          {...form.register('amount')}
        />
        {heldBy.length > 0 ? (
          <p data-testid="transfer-held" className="text-xs text-muted">
            Not transferable: {heldBy.join('; ')}.
          </p>
        ) : null}
      </form>
    </Modal>
  );
}
