import {
  botMessages,
  readNumberText,
  type SltpValues,
  triggerPriceError,
  triggerVsLivePriceErrors,
} from '@gridbot/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { LivePriceRow } from '../../../components/ui/market-fields';
import { Modal } from '../../../components/ui/modal';
import { NumberInput } from '../../../components/ui/number-input';
import { errorMessage } from '../../../lib/api-client';
import { formatPrice } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import type { BotKind } from '../api/bot-paths';
import { useSltpEdit } from '../api/running-bot';
import { useSaveOrReset } from '../hooks/use-save-or-reset';
import { toNumber } from '../lib/bot-format';
import { SaveResetButtons } from './save-reset-buttons';

type FieldName = 'pause' | 'restart' | 'stoploss';
type Values = Record<FieldName, string>;

const FIELDS: { name: FieldName; label: string; placeholder: string }[] = [
  { name: 'pause', label: 'Pause Price', placeholder: 'Sell all and pause at' },
  { name: 'restart', label: 'Restart Price', placeholder: 'Restart after a pause at' },
  { name: 'stoploss', label: 'Stoploss Price', placeholder: 'Stop loss and stop bot at' },
];

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

/** docs/spec/02-bots-wallet-account.md §5: free text, checked by the shared rules the server applies again. */
export function checkSltp(values: Values, livePrice: number | null) {
  const errors: Partial<Record<FieldName, string>> = {};
  const parsed: Record<FieldName, number | null> = { pause: null, restart: null, stoploss: null };
  for (const name of ['pause', 'restart', 'stoploss'] as const) {
    const n = readNumberText(values[name]);
    if (n === undefined) continue;
    const problem = n === null ? botMessages.priceNumber : triggerPriceError(n);
    if (problem) errors[name] = problem;
    else parsed[name] = n;
  }
  Object.assign(errors, triggerVsLivePriceErrors(parsed, livePrice));
  return { errors, parsed };
}

interface SltpDialogProps {
  open: boolean;
  onClose: () => void;
  kind: BotKind;
  botId: string;
  sltp: SltpValues | undefined;
}

/** docs/spec/02-bots-wallet-account.md Edit Stop Loss Take Profit: live price, three prices, Reset and Save Changes. */
export function SltpDialog({ open, onClose, kind, botId, sltp }: SltpDialogProps) {
  const [values, setValues] = useState<Values>(() => initialValues(sltp));
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const edit = useSltpEdit(kind, botId);
  const { busy, run } = useSaveOrReset(edit);
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
    run(
      'save',
      { sellAllAndPausePrice: parsed.pause, restartPrice: parsed.restart, stoplossPrice: parsed.stoploss },
      {
        onSuccess: () => {
          toast.success(botMessages.sltpUpdated);
          onClose();
        },
        onError: (error) => {
          toast.error(errorMessage(error, botMessages.sltpUpdateFailed));
        },
      },
    );
  };

  const onReset = () => {
    run(
      'reset',
      { sellAllAndPausePrice: null, restartPrice: null, stoplossPrice: null },
      {
        onSuccess: () => {
          toast.success(botMessages.sltpReset);
          onClose();
        },
        onError: (error) => {
          toast.error(errorMessage(error, botMessages.sltpResetFailed));
        },
      },
    );
  };

  return (
    <Modal open={open} onClose={busy ? undefined : onClose} title="Edit Stop Loss Take Profit" size="sm">
      <form noValidate onSubmit={onSave} className="space-y-4">
        <LivePriceRow testId="sltp-live-price">
          {livePrice === null ? '—' : formatPrice(livePrice)}
        </LivePriceRow>
        {FIELDS.map(({ name, label, placeholder }) => (
          <NumberInput
            key={name}
            label={label}
            placeholder={placeholder}
            value={values[name]}
            onChange={set(name)}
            error={errors[name]}
          />
        ))}
        <SaveResetButtons busy={busy} onReset={onReset} className="pt-1" />
      </form>
    </Modal>
  );
}
