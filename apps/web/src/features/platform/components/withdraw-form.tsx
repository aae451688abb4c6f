import { platformMessages as m, securityMessages, withdrawFormSchema } from '@gridbot/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { NumberInput } from '../../../components/ui/number-input';
import { toast } from '../../../lib/toast';
import { platformErrorMessage } from '../api/platform-client';
import { useCreateWithdrawal } from '../api/platform-queries';

/** Server answers that belong under the address field; every other refusal concerns the amount. */
const ADDRESS_MESSAGES: readonly string[] = [m.addressChecksum, m.addressInvalid, m.addressRequired];

/** docs/spec/02-bots-wallet-account.md Withdraw: amount and BEP-20 address (docs/spec/02-bots-wallet-account.md §5), sent to POST /withdraw/create. */
export function WithdrawForm({
  onAccountChanged,
  fee,
}: {
  onAccountChanged: () => void;
  fee?: string | undefined;
}) {
  const withdraw = useCreateWithdrawal(onAccountChanged);
  const form = useForm({
    resolver: zodResolver(withdrawFormSchema),
    defaultValues: { amount: '', toAddress: '' },
  });
  const { errors } = form.formState;
  // With two-factor sign-in on, the server asks for the code before a withdrawal: a field appears.
  const [needsCode, setNeedsCode] = useState(false);
  const [code, setCode] = useState('');

  const onSubmit = form.handleSubmit(async (input) => {
    try {
      const { msg } = await withdraw.mutateAsync(code ? { ...input, code } : input);
      toast.success(msg || m.withdrawRequested);
      form.reset({ amount: '', toAddress: '' });
      setCode('');
    } catch (error) {
      const message = platformErrorMessage(error, 'Withdrawal failed. Please try again.');
      if (message === securityMessages.codeRequired || message === securityMessages.codeInvalid) {
        setNeedsCode(true);
        toast.error(message);
        return;
      }
      form.setError(ADDRESS_MESSAGES.includes(message) ? 'toAddress' : 'amount', { type: 'server', message });
      toast.error(message);
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <NumberInput
        label="Withdraw Amount (USDT)"
        placeholder="0.00"
        hint={
          fee ? `A fee of ${fee} USDT is kept from the amount; the address receives the rest.` : undefined
        }
        error={errors.amount?.message}
        {...form.register('amount')}
      />
      <Input
        label="Wallet Address (BEP-20)"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={42}
        placeholder="0x…"
        className="font-mono"
        error={errors.toAddress?.message}
        {...form.register('toAddress')}
      />
      {needsCode ? (
        <Input
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={11}
          placeholder="6-digit code"
          className="font-mono tracking-widest"
          value={code}
          onChange={(event) => setCode(event.target.value.trim())}
        />
      ) : null}
      <p className="text-xs text-muted">
        Paid in USDT on the BNB Smart Chain (BEP-20). Requests are reviewed before they are sent.
      </p>
      <Button type="submit" fullWidth loading={withdraw.isPending}>
        {withdraw.isPending ? 'Submitting...' : 'Withdraw'}
      </Button>
    </form>
  );
}
