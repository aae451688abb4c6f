import { type GridBotView, isPlainNumberText } from '@gridbot/shared';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { NumberInput } from '../../../components/ui/number-input';
import { toast } from '../../../lib/toast';
import { useEditGrid } from '../api/grid-api';
import { gridErrorMessage } from '../lib/grid-errors';

interface Props {
  open: boolean;
  onClose: () => void;
  bot: GridBotView;
}

type PriceField = 'stopLoss' | 'takeProfit' | 'trailingUpLimit' | 'trailingDownLimit';

const text = (n: number | null | undefined) => (n == null ? '' : String(n));

/**
 * The stops and trailing of a running grid (POST /api/gridedit): a cleared price is sent as null (removed), the
 * checks against the grid's bounds are the server's, shown as its message.
 */
export function GridEditDialog({ open, onClose, bot }: Props) {
  const s = bot.strategy;
  const future = bot.category === 'Future';
  const [values, setValues] = useState({
    stopLoss: text(s.stopLoss),
    takeProfit: text(s.takeProfit),
    trailingUpLimit: text(s.trailingUpLimit),
    trailingDownLimit: text(s.trailingDownLimit),
  });
  const [sellOnStop, setSellOnStop] = useState(s.sellOnStop);
  const [trailingUp, setTrailingUp] = useState(s.trailingUp);
  const [trailingDown, setTrailingDown] = useState(s.trailingDown);
  const [errors, setErrors] = useState<Partial<Record<PriceField, string>>>({});
  const edit = useEditGrid(bot.id);

  const save = () => {
    const found: Partial<Record<PriceField, string>> = {};
    for (const key of Object.keys(values) as PriceField[]) {
      const v = values[key].trim();
      if (v !== '' && (!isPlainNumberText(v) || !(Number(v) > 0)))
        found[key] = `${key} must be a price above 0`;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const price = (key: PriceField) => (values[key].trim() === '' ? null : Number(values[key]));
    edit.mutate(
      {
        stopLoss: price('stopLoss'),
        takeProfit: price('takeProfit'),
        sellOnStop,
        trailingUp,
        trailingUpLimit: trailingUp ? price('trailingUpLimit') : null,
        ...(future
          ? { trailingDown, trailingDownLimit: trailingDown ? price('trailingDownLimit') : null }
          : {}),
      },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onClose();
        },
        onError: (error) =>
          toast.error(gridErrorMessage(error, 'Could not save the changes. Please try again.')),
      },
    );
  };

  const input = (key: PriceField, label: string, hint: string) => (
    <NumberInput
      label={label}
      hint={hint}
      value={values[key]}
      error={errors[key]}
      onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
    />
  );

  return (
    <Modal
      open={open}
      onClose={edit.isPending ? undefined : onClose}
      title="Edit stops and trailing"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={edit.isPending}>
            Cancel
          </Button>
          <Button onClick={save} loading={edit.isPending}>
            Save
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        {input('stopLoss', 'Stop-loss price', 'Below lower; empty removes it')}
        {input('takeProfit', 'Take-profit price', 'Above upper; empty removes it')}
        <Toggle
          label={future ? 'Close the position on a stop' : 'Sell the coin on a stop'}
          on={sellOnStop}
          set={setSellOnStop}
        />
        <Toggle label="Trailing up" on={trailingUp} set={setTrailingUp} />
        {trailingUp ? input('trailingUpLimit', 'Trailing up limit', 'Above upper; empty: no limit') : null}
        {future ? (
          <>
            <Toggle label="Trailing down" on={trailingDown} set={setTrailingDown} />
            {trailingDown
              ? input('trailingDownLimit', 'Trailing down limit', 'Below lower; empty: no limit')
              : null}
          </>
        ) : null}
      </div>
    </Modal>
  );
}

function Toggle({ label, on, set }: { label: string; on: boolean; set: (on: boolean) => void }) {
  return (
    <label className="flex items-center gap-2 text-sm text-fg">
      <input
        type="checkbox"
        className="size-4 accent-(--primary)"
        checked={on}
        onChange={(e) => set(e.target.checked)}
      />
      {label}
    </label>
  );
}
