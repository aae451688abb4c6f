import {
  botMessages,
  PROFIT_BOOK_MAX_PCT,
  PROFIT_BOOK_MIN_PCT,
  profitBookPctError,
  readNumberText,
} from '@gridbot/shared';
import type { BotKind } from '../api/bot-paths';
import { useProfitBookEdit } from '../api/running-bot';
import { toNumber } from '../lib/bot-format';
import { OneValueDialog } from './one-value-dialog';

/** docs/spec/02-bots-wallet-account.md §5: the shared rule; an empty field is below the minimum (Reset clears it). */
export function checkProfitBook(text: string): string | undefined {
  const n = readNumberText(text);
  return n === undefined ? botMessages.profitBookMin : profitBookPctError(n ?? Number.NaN);
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
        inputMode: 'decimal',
        autoComplete: 'off',
        placeholder: `${PROFIT_BOOK_MIN_PCT} – ${PROFIT_BOOK_MAX_PCT}`,
      }}
    />
  );
}
