import { ADD_FUNDS_MIN_USDT, addFundsInputSchema, money } from '@gridbot/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { NumberInput } from '../../../components/ui/number-input';
import { isApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import type { BotKind } from '../api/bot-paths';
import { useAddFunds, useFreeUsdt } from '../api/running-bot';
import { formatUsd, toNumber } from '../lib/bot-format';

interface AddFundsDialogProps {
  open: boolean;
  onClose: () => void;
  kind: BotKind;
  botId: string;
  category: 'Spot' | 'Future';
  investment: number | string;
}

/**
 * Add funds to a running bot: the amount is checked by the same schema as the route, and the server checks
 * it as a start (free balance, each grid's minimum order). The dialog says what the amount does: every
 * grid's share grows with the investment, the lots already bought stay as they are.
 */
export function AddFundsDialog({ open, onClose, kind, botId, category, investment }: AddFundsDialogProps) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const add = useAddFunds(kind, botId);
  const free = useFreeUsdt(category, open);
  const wallet = category === 'Future' ? 'futures' : 'spot';

  useEffect(() => {
    if (!open) return;
    setValue('');
    setError(undefined);
  }, [open]);

  const current = toNumber(investment) ?? 0;
  const parsed = addFundsInputSchema.shape.amount.safeParse(value);
  const amount = parsed.success ? parsed.data : null;
  const total = amount === null ? null : money(current).plus(amount).toNumber();
  const growth = amount === null || current <= 0 ? null : (amount / current) * 100;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    add.mutate(value.trim(), {
      onSuccess: (answer) => {
        toast.success(answer.message);
        onClose();
      },
      onError: (failure) => {
        // The server's reason (balance, minimum order) belongs under the field.
        setError(
          isApiError(failure) && failure.fromServer ? failure.message : 'Error adding funds to the bot',
        );
      },
    });
  };

  return (
    <Modal
      open={open}
      onClose={add.isPending ? undefined : onClose}
      title="Add funds"
      description={`USDT${category === 'Future' ? ' margin' : ''} from your ${wallet} wallet joins this bot's investment.`}
      size="sm"
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <NumberInput
          label="Amount (USDT)"
          name="amount"
          placeholder={`At least ${ADD_FUNDS_MIN_USDT}`}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            // A message about the amount no longer stands once it is changed.
            setError(undefined);
          }}
          error={error}
          hint={`Available in your ${wallet} wallet: ${free.data ? formatUsd(free.data) : '—'}`}
        />
        <dl className="space-y-1.5 rounded-lg bg-surface-2 px-4 py-3 text-sm">
          <div className="flex justify-between gap-3">
            <dt className="text-muted">Investment now</dt>
            <dd className="font-semibold tabular-nums text-fg">{formatUsd(current)}</dd>
          </div>
          <div className="flex justify-between gap-3">
            <dt className="text-muted">Investment after</dt>
            <dd className="font-semibold tabular-nums text-fg" data-testid="investment-after">
              {total === null ? '—' : formatUsd(total)}
            </dd>
          </div>
        </dl>
        <p className="text-xs text-muted" data-testid="add-funds-effect">
          {growth === null
            ? "Every grid's share of the investment grows in proportion."
            : `Every grid's share of the investment grows by ${growth.toFixed(2)}%.`}{' '}
          Grids already bought keep their orders; the next ones buy with the larger share.
        </p>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={onClose} disabled={add.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending}>
            Add funds
          </Button>
        </div>
      </form>
    </Modal>
  );
}
