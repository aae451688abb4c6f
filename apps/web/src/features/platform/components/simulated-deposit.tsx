import { firstIssueMessage, PLATFORM_TOKENS, simulatedDepositInputSchema } from '@gridbot/shared';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { NumberInput } from '../../../components/ui/number-input';
import { SelectField } from '../../../components/ui/select-field';
import { toast } from '../../../lib/toast';
import { platformErrorMessage } from '../api/platform-client';
import { useSimulatedDeposit } from '../api/platform-queries';

/**
 * A paper install's deposit: no chain is watched, so the user credits simulated funds to try
 * subscriptions, referral rewards and withdrawals. Clearly labelled: nothing real moves.
 */
export function SimulatedDeposit({ onAccountChanged }: { onAccountChanged: () => void }) {
  const [token, setToken] = useState<string>('USDT');
  const [amount, setAmount] = useState('100');
  const [error, setError] = useState<string | undefined>();
  const deposit = useSimulatedDeposit(onAccountChanged);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // The route's schema: "-5" or "1e12" is refused with its message, never credited as something else.
    const parsed = simulatedDepositInputSchema.safeParse({ token, amount });
    if (!parsed.success) {
      setError(firstIssueMessage(parsed.error));
      return;
    }
    setError(undefined);
    deposit.mutate(
      { token, amount: parsed.data.amount },
      {
        onSuccess: (reply) => toast.success(reply.msg ?? 'Simulated deposit credited.'),
        onError: (error) => toast.error(platformErrorMessage(error, 'Simulated deposit failed.')),
      },
    );
  };
  return (
    <Card className="border-dashed p-5 sm:p-6" data-testid="simulated-deposit">
      <p className="inline-flex rounded-full bg-warn/15 px-2.5 py-0.5 text-xs font-semibold tracking-wide text-warn uppercase">
        Paper install · simulated
      </p>
      <h2 className="mt-2 text-base font-semibold text-fg">Simulated deposit</h2>
      <p className="mt-1 text-sm text-muted">
        This install trades on a paper exchange and watches no blockchain. Credit simulated funds to try
        subscriptions, referral rewards and withdrawals. No real money is moved; the deposit is listed as
        Simulated.
      </p>
      <form
        className="mt-4 grid gap-3 sm:grid-cols-[8rem_1fr_auto] sm:items-end"
        onSubmit={onSubmit}
        noValidate
      >
        <SelectField label="Coin" value={token} onChange={(event) => setToken(event.target.value)}>
          {PLATFORM_TOKENS.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
        <NumberInput
          label="Amount"
          value={amount}
          error={error}
          onChange={(event) => setAmount(event.target.value)}
        />
        <Button type="submit" loading={deposit.isPending}>
          Deposit (simulated)
        </Button>
      </form>
    </Card>
  );
}
