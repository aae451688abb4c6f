import { SYMBOLS, walletMessages } from '@gridbot/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { NumberInput } from '../../../components/ui/number-input';
import { errorMessage } from '../../../lib/api-client';
import { formatPrice } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { useLivePrice, useSwapToUsdt } from '../api/wallet-actions';
import { useCommittedFunds, type WalletAsset } from '../api/wallet-queries';
import { formatQuantity, usdtValue } from '../lib/amounts';
import { swapMinimumReason } from '../lib/swap-minimum';
import { type SwapFormInput, type SwapFormOutput, swapFormSchema } from '../lib/wallet-forms';
import { AmountButton } from './amount-button';
import { AssetAvatar } from './asset-avatar';

interface SwapModalProps {
  /** The spot asset to swap; the dialog is open while it is set. */
  asset: WalletAsset | null;
  onClose: () => void;
}

/** docs/spec/02-bots-wallet-account.md Swap to USDT: sell a spot asset at market, with ALL and the equivalent USDT at the live price. */
export function SwapModal({ asset: openAsset, onClose }: SwapModalProps) {
  // Keep the last asset on screen while the dialog animates out (derived state, set during render).
  const [lastAsset, setLastAsset] = useState(openAsset);
  if (openAsset && openAsset !== lastAsset) setLastAsset(openAsset);
  const asset = openAsset ?? lastAsset;
  const swap = useSwapToUsdt();
  const available = asset?.free;
  const price = useLivePrice(openAsset?.asset);
  const committed = useCommittedFunds();
  const holders = useMemo(
    () =>
      (committed.data?.bots ?? [])
        .filter((bot) => asset && bot.asset === asset.asset && Number(bot.qty) > 0)
        .map((bot) => bot.name),
    [committed.data, asset],
  );
  const resolver = useMemo(
    () => zodResolver(swapFormSchema(available, asset ? { asset: asset.asset, bots: holders } : undefined)),
    [available, asset, holders],
  );
  const form = useForm<SwapFormInput, unknown, SwapFormOutput>({
    resolver,
    defaultValues: { amount: '' },
  });
  const { errors } = form.formState;
  const amount = String(form.watch('amount') ?? '');
  const equivalent = usdtValue(amount, price.data?.price);
  // Coin a bot holds is refused by the server with the bot's name (what to stop first); only a leftover no bot
  // holds is disabled here as too small to sell.
  const heldByBot = Number(asset?.committed ?? 0) > 0;
  const tooSmall = asset && !heldByBot ? swapMinimumReason(asset.asset, asset.free, price.data?.price) : null;

  // Opened (or opened on another asset): start from an empty amount.
  const openSymbol = openAsset?.asset;
  useEffect(() => {
    if (openSymbol) form.reset({ amount: '' });
  }, [openSymbol, form]);

  const onSubmit = form.handleSubmit(({ amount: value }) => {
    if (!asset) return;
    return swap.mutateAsync({ asset: asset.asset, amount: value }).then(
      (reply) => {
        toast.success(reply?.message || walletMessages.swapSuccessful);
        onClose();
      },
      (error: unknown) => {
        toast.error(errorMessage(error, walletMessages.swapFailed));
      },
    );
  });

  return (
    <Modal
      open={openAsset !== null}
      onClose={swap.isPending ? undefined : onClose}
      size="sm"
      title="Swap to USDT"
      description={asset ? `Sell ${asset.asset} at the market price for USDT.` : undefined}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={swap.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="swap-form" loading={swap.isPending} disabled={tooSmall !== null}>
            {swap.isPending ? 'Swapping...' : 'Swap'}
          </Button>
        </>
      }
    >
      {asset ? (
        <form id="swap-form" noValidate onSubmit={onSubmit} className="space-y-4">
          <div className="flex items-center gap-3 rounded-xl border border-line bg-surface-2/40 px-4 py-3">
            <AssetAvatar asset={asset.asset} />
            <div className="min-w-0">
              <p className="font-semibold text-fg">{asset.asset}</p>
              <p className="text-xs text-muted">
                Available:{' '}
                <span data-testid="swap-available" className="font-semibold text-fg tabular-nums">
                  {formatQuantity(asset.free)}
                </span>{' '}
                {asset.asset}
              </p>
              {asset.committed && Number(asset.committed) > 0 ? (
                <p data-testid="swap-held" className="text-xs text-muted">
                  Held by running bots:{' '}
                  <span className="font-semibold text-fg tabular-nums">
                    {formatQuantity(asset.committed)}
                  </span>{' '}
                  {asset.asset} (not swappable)
                </p>
              ) : null}
            </div>
          </div>

          {tooSmall ? (
            <p
              role="status"
              data-testid="swap-too-small"
              className="rounded-lg bg-warn/10 p-3 text-sm text-fg"
            >
              {tooSmall}
            </p>
          ) : null}
          <NumberInput
            label={`Amount (${asset.asset})`}
            disabled={tooSmall !== null}
            placeholder="0.00"
            className="pr-16 tabular-nums"
            error={errors.amount?.message}
            end={
              <AmountButton
                onClick={() => form.setValue('amount', asset.free, { shouldValidate: true })}
                aria-label={`Swap all ${asset.asset}`}
              >
                ALL
              </AmountButton>
            }
            {...form.register('amount')}
          />

          <div className="rounded-xl bg-primary-soft px-4 py-3">
            <div className="flex items-baseline justify-between gap-3">
              <span className="text-sm text-muted">Equivalent USDT</span>
              <span data-testid="swap-equivalent" className="text-lg font-bold text-fg tabular-nums">
                {equivalent ? `≈ ${equivalent}` : '—'}
              </span>
            </div>
            <p className="mt-1 text-xs text-muted">
              {price.data
                ? `1 ${asset.asset} = ${formatPrice(Number(price.data.price))} USDT, live price before fees`
                : price.isError || !SYMBOLS.includes(`${asset.asset}USDT`)
                  ? 'Live price unavailable'
                  : 'Loading the live price…'}
            </p>
          </div>
        </form>
      ) : null}
    </Modal>
  );
}
