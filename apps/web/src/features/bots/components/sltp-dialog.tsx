import { botMessages } from '@gridbot/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { errorMessage } from '../../../lib/api-client';
import { formatPrice } from '../../../lib/format';
import type { BotKind } from '../api/bot-paths';
import { type SltpValues, useSltpEdit } from '../api/running-bot';
import { toNumber } from '../lib/bot-format';

type FieldName = 'pause' | 'restart' | 'stoploss';
type Values = Record<FieldName, string>;

function initialValues(sltp: SltpValues | undefined): Values {
  const text = (v: number | string | null | undefined) => {
    const n = toNumber(v);
    return n === null || n === 0 ? '' : String(n);
  };
  return {
    pause: text(sltp?.sell_all_and_pause_at_price),
    restart: text(sltp?.restart_at_price),
    stoploss: text(sltp?.stoploss_and_stopbot_at_price),
  };
}

/** Spec 02 §5: free text, but a set pause price must be above and a stoploss below the live price. */
export function checkSltp(values: Values, livePrice: number | null) {
  const errors: Partial<Record<FieldName, string>> = {};
  const parsed: Record<FieldName, number | null> = { pause: null, restart: null, stoploss: null };
  for (const name of ['pause', 'restart', 'stoploss'] as const) {
    const text = values[name].trim();
    if (text === '') continue;
    const n = Number(text);
    if (!Number.isFinite(n) || n <= 0) errors[name] = botMessages.priceNumber;
    else parsed[name] = n;
  }
  if (livePrice !== null) {
    if (parsed.pause !== null && parsed.pause <= livePrice) errors.pause = botMessages.pauseAboveLive;
    if (parsed.stoploss !== null && parsed.stoploss >= livePrice)
      errors.stoploss = botMessages.stoplossBelowLive;
  }
  return { errors, parsed };
}

interface SltpDialogProps {
  open: boolean;
  onClose: () => void;
  kind: BotKind;
  botId: string;
  sltp: SltpValues | undefined;
}

/** Spec 02 Edit Stop Loss Take Profit: live price, three prices, Reset and Save Changes. */
export function SltpDialog({ open, onClose, kind, botId, sltp }: SltpDialogProps) {
  const [values, setValues] = useState<Values>(() => initialValues(sltp));
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [busy, setBusy] = useState<'save' | 'reset' | null>(null);
  const edit = useSltpEdit(kind, botId);
  const livePrice = toNumber(sltp?.liveprice);

  // Each opening starts from the bot's current values.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on opening, not on every refresh
  useEffect(() => {
    if (open) {
      setValues(initialValues(sltp));
      setErrors({});
    }
  }, [open]);

  const set = (name: FieldName) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: event.target.value }));

  const onSave = (event: FormEvent) => {
    event.preventDefault();
    const { errors: found, parsed } = checkSltp(values, livePrice);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy('save');
    edit.mutate(
      { sellAllAndPausePrice: parsed.pause, restartPrice: parsed.restart, stoplossPrice: parsed.stoploss },
      {
        onSuccess: () => {
          toast.success(botMessages.sltpUpdated);
          onClose();
        },
        onError: (error) => {
          toast.error(errorMessage(error, botMessages.sltpUpdateFailed));
        },
        onSettled: () => setBusy(null),
      },
    );
  };

  const onReset = () => {
    setBusy('reset');
    edit.mutate(
      { sellAllAndPausePrice: null, restartPrice: null, stoplossPrice: null },
      {
        onSuccess: () => {
          toast.success(botMessages.sltpReset);
          onClose();
        },
        onError: (error) => {
          toast.error(errorMessage(error, botMessages.sltpResetFailed));
        },
        onSettled: () => setBusy(null),
      },
    );
  };

  return (
    <Modal open={open} onClose={busy ? undefined : onClose} title="Edit Stop Loss Take Profit" size="sm">
      <form noValidate onSubmit={onSave} className="space-y-4">
        <div className="flex items-center justify-between rounded-lg bg-surface-2 px-4 py-3 text-sm">
          <span className="text-muted">Live Price</span>
          <span data-testid="sltp-live-price" className="font-bold text-fg tabular-nums">
            {livePrice === null ? '—' : formatPrice(livePrice)}
          </span>
        </div>
        <Input
          label="Pause Price"
          inputMode="decimal"
          autoComplete="off"
          placeholder="Sell all and pause at"
          value={values.pause}
          onChange={set('pause')}
          error={errors.pause}
        />
        <Input
          label="Restart Price"
          inputMode="decimal"
          autoComplete="off"
          placeholder="Restart after a pause at"
          value={values.restart}
          onChange={set('restart')}
          error={errors.restart}
        />
        <Input
          label="Stoploss Price"
          inputMode="decimal"
          autoComplete="off"
          placeholder="Stop loss and stop bot at"
          value={values.stoploss}
          onChange={set('stoploss')}
          error={errors.stoploss}
        />
        <div className="flex justify-end gap-2 pt-1">
          <Button variant="outline" onClick={onReset} loading={busy === 'reset'} disabled={busy !== null}>
            Reset
          </Button>
          <Button type="submit" loading={busy === 'save'} disabled={busy !== null}>
            Save Changes
          </Button>
        </div>
      </form>
    </Modal>
  );
}
