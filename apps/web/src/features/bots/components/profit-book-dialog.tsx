import { botMessages } from '@gridbot/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import type { BotKind } from '../api/bot-paths';
import { useProfitBookEdit } from '../api/running-bot';
import { toNumber } from '../lib/bot-format';
import { reloadPageSoon } from '../lib/reload-page';

/** Spec 02 §5: 1 to 1000 percent; below 1 is refused with the spec's words. */
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
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<'save' | 'reset' | null>(null);
  const edit = useProfitBookEdit(kind, botId);

  // biome-ignore lint/correctness/useExhaustiveDependencies: start from the current value on each opening
  useEffect(() => {
    if (!open) return;
    const n = toNumber(current);
    setValue(n === null ? '' : String(n));
    setError(undefined);
  }, [open]);

  const send = (reset: boolean) => {
    setBusy(reset ? 'reset' : 'save');
    edit.mutate(reset ? null : Number(value.trim()), {
      onSuccess: () => {
        toast.success(reset ? botMessages.profitBookReset : botMessages.profitBookSaved);
        onClose();
        reloadPageSoon();
      },
      onError: () => {
        toast.error(botMessages.profitBookFailed);
      },
      onSettled: () => setBusy(null),
    });
  };

  const onSave = (event: FormEvent) => {
    event.preventDefault();
    const problem = checkProfitBook(value);
    setError(problem);
    if (!problem) send(false);
  };

  return (
    <Modal
      open={open}
      onClose={busy ? undefined : onClose}
      title="Profit book & stop at (%)"
      description="When the bot's total PnL reaches this share of its investment, it sells everything and stops."
      size="sm"
    >
      <form noValidate onSubmit={onSave} className="space-y-4">
        <Input
          label="Profit book & stop at (%)"
          type="number"
          inputMode="decimal"
          min={1}
          max={1000}
          placeholder="1 – 1000"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          error={error}
        />
        <div className="flex justify-end gap-2">
          <Button
            variant="outline"
            onClick={() => send(true)}
            loading={busy === 'reset'}
            disabled={busy !== null}
          >
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
