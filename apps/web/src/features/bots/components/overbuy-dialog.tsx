import { botMessages, overbuyGridError, type ProtectionValues } from '@gridbot/shared';
import type { BotKind } from '../api/bot-paths';
import { useOverbuyEdit } from '../api/running-bot';
import { OneValueDialog } from './one-value-dialog';

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
  const edit = useOverbuyEdit(kind, botId);
  const grids = protection?.total_grid ?? totalGrids;
  return (
    <OneValueDialog
      open={open}
      onClose={onClose}
      title="Overbuy Grid Protection"
      description={`The bot buys no grid beyond this one. This bot has ${grids} grids.`}
      initialValue={() =>
        protection?.is_protection_active && protection.protection_grid_at
          ? String(protection.protection_grid_at)
          : ''
      }
      check={(text) => overbuyGridError(text, grids)}
      edit={edit}
      toInput={(value) => ({ overbuyProtectionValue: value, protectionActive: value !== null })}
      toasts={{
        save: botMessages.overbuySaved,
        reset: botMessages.overbuyReset,
        failed: botMessages.overbuyFailed,
      }}
      field={{
        label: 'Overbuy Grid Protection',
        inputMode: 'numeric',
        autoComplete: 'off',
        placeholder: grids > 1 ? `1 – ${grids - 1}` : 'Needs at least 2 grids',
        hint: protection?.is_protection_active
          ? `Active at grid ${protection.protection_grid_at}`
          : 'Not active',
      }}
    />
  );
}
