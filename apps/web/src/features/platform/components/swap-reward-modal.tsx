import { platformMessages as m, swapRewardFormSchema } from '@gridbot/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { NumberInput } from '../../../components/ui/number-input';
import { toast } from '../../../lib/toast';
import { platformErrorMessage } from '../api/platform-client';
import { useSwapReward } from '../api/platform-queries';
import { formatAmount, plainAmount } from '../lib/platform-format';

interface SwapRewardModalProps {
  open: boolean;
  onClose: () => void;
  rewardBalance: string;
  onAccountChanged: () => void;
}

/** docs/spec/02-bots-wallet-account.md Withdraw: the 'transfer to usdt wallet' modal (POST /swap/usdt-reward/create, docs/spec/02-bots-wallet-account.md §5 rules). */
export function SwapRewardModal({ open, onClose, rewardBalance, onAccountChanged }: SwapRewardModalProps) {
  const swap = useSwapReward(onAccountChanged);
  const schema = useMemo(() => swapRewardFormSchema(rewardBalance), [rewardBalance]);
  const form = useForm({ resolver: zodResolver(schema), defaultValues: { amount: '' } });
  const { errors } = form.formState;

  useEffect(() => {
    if (open) form.reset({ amount: '' });
  }, [open, form]);

  const onSubmit = form.handleSubmit(async ({ amount }) => {
    try {
      const { msg } = await swap.mutateAsync({ amount });
      toast.success(msg || m.swapDone);
      onClose();
    } catch (error) {
      const message = platformErrorMessage(error, 'Transfer failed. Please try again.');
      form.setError('amount', { type: 'server', message });
      toast.error(message);
    }
  });

  return (
    <Modal
      open={open}
      onClose={swap.isPending ? undefined : onClose}
      title="Transfer to USDT Wallet"
      description="Move rewards to your platform USDT wallet, where they can pay for subscriptions."
      size="sm"
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <p className="text-sm text-muted">
          Rewards available:{' '}
          <span className="font-semibold text-fg tabular-nums">{formatAmount(rewardBalance)} USDT</span>
        </p>
        <NumberInput
          label="Amount"
          placeholder="0.00"
          error={errors.amount?.message}
          className="pr-16"
          end={
            <Button
              variant="ghost"
              size="sm"
              className="h-8 px-2 text-primary"
              onClick={() => form.setValue('amount', plainAmount(rewardBalance), { shouldValidate: true })}
            >
              ALL
            </Button>
          }
          {...form.register('amount')}
        />
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose} disabled={swap.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={swap.isPending}>
            {swap.isPending ? 'Transferring...' : 'Transfer'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
