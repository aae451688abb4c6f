import { botMessages } from '@gridbot/shared';
import type { BotKind } from '../api/bot-paths';
import { useProfitBookEdit } from '../api/running-bot';
import { toNumber } from '../lib/bot-format';
import { OneValueDialog } from './one-value-dialog';

/** docs/spec/02-bots-wallet-account.md §5: 1 to 1000 percent; below 1 is refused with the spec's words. */
export function checkProfitBook(text: string): string | undefined {
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(n) || n < 1) return botMessages.profitBookMin;
  if (n > 1000) return botMessages.profitBookMax;
  return undefined;
}

interface ProfitBookDialogProps {
  open: boolean;
  onClose: () => void;
  kind: BotKind;
  botId: string;
  current: number | string | null | undefined;
}

/** Profit book & stop at (%): the bot sells everything and stops once total PnL reaches this share. */
export function ProfitBookDialog({ open, onClose, kind, botId, current }: ProfitBookDialogProps) {
  const edit = useProfitBookEdit(kind, botId);
  return (
    <OneValueDialog
      open={open}
      onClose={onClose}
      title="Profit book & stop at (%)"
      description="When the bot's total PnL reaches this share of its investment, it sells everything and stops."
      initialValue={() => {
        const n = toNumber(current);
        return n === null ? '' : String(n);
      }}
      check={checkProfitBook}
      edit={edit}
      toInput={(value) => value}
      toasts={{
        save: botMessages.profitBookSaved,
        reset: botMessages.profitBookReset,
        failed: botMessages.profitBookFailed,
      }}
      field={{
        label: 'Profit book & stop at (%)',
        type: 'number',
        inputMode: 'decimal',
        min: 1,
        max: 1000,
        placeholder: '1 – 1000',
      }}
    />
  );
}
