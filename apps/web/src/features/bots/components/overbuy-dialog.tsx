import { botMessages } from '@gridbot/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import type { BotKind } from '../api/bot-paths';
import { type ProtectionValues, useOverbuyEdit } from '../api/running-bot';
import { reloadPageSoon } from '../lib/reload-page';

/** Spec 02 §5: an integer from 1 to the bot's grids minus one. */
export function checkOverbuy(text: string, totalGrids: number): string | undefined {
  const max = totalGrids - 1;
  const trimmed = text.trim();
  const n = Number(trimmed);
  if (trimmed === '' || !/^\d+$/.test(trimmed) || n < 1 || n > max) return botMessages.overbuyRange(max);
  return undefined;
}

interface OverbuyDialogProps {
  open: boolean;
  onClose: () => void;
  kind: BotKind;
  botId: string;
  protection: ProtectionValues | undefined;
  totalGrids: number;
}

/** Overbuy Grid Protection: buys stop after this grid until the stack shrinks again. */
export function OverbuyDialog({ open, onClose, kind, botId, protection, totalGrids }: OverbuyDialogProps) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<'save' | 'reset' | null>(null);
  const edit = useOverbuyEdit(kind, botId);
  const grids = protection?.total_grid ?? totalGrids;

  // biome-ignore lint/correctness/useExhaustiveDependencies: start from the current value on each opening
  useEffect(() => {
    if (!open) return;
    setValue(
      protection?.is_protection_active && protection.protection_grid_at
        ? String(protection.protection_grid_at)
        : '',
    );
    setError(undefined);
  }, [open]);

  const send = (reset: boolean) => {
    setBusy(reset ? 'reset' : 'save');
    edit.mutate(
      reset
        ? { overbuyProtectionValue: null, protectionActive: false }
        : { overbuyProtectionValue: Number(value.trim()), protectionActive: true },
      {
        onSuccess: () => {
          toast.success(reset ? botMessages.overbuyReset : botMessages.overbuySaved);
          onClose();
          reloadPageSoon();
        },
        onError: () => {
          toast.error(botMessages.overbuyFailed);
        },
        onSettled: () => setBusy(null),
      },
    );
  };

  const onSave = (event: FormEvent) => {
    event.preventDefault();
    const problem = checkOverbuy(value, grids);
    setError(problem);
    if (!problem) send(false);
  };

  return (
    <Modal
      open={open}
      onClose={busy ? undefined : onClose}
      title="Overbuy Grid Protection"
      description={`The bot buys no grid beyond this one. This bot has ${grids} grids.`}
      size="sm"
    >
      <form noValidate onSubmit={onSave} className="space-y-4">
        <Input
          label="Overbuy Grid Protection"
          inputMode="numeric"
          autoComplete="off"
          placeholder={grids > 1 ? `1 – ${grids - 1}` : 'Needs at least 2 grids'}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          error={error}
          hint={
            protection?.is_protection_active
              ? `Active at grid ${protection.protection_grid_at}`
              : 'Not active'
          }
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
