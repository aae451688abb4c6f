import { cycleMessages, type EditCycleInput, editCycleInputSchema, type LiveCycle } from '@gridbot/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { LivePriceRow } from '../../../components/ui/market-fields';
import { Modal } from '../../../components/ui/modal';
import { NumberInput } from '../../../components/ui/number-input';
import { formatPair, formatPrice } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { useEditCycle } from '../api/cycles';
import { failureToast } from '../lib/cycle-errors';
import { CycleCountInput } from './cycle-count-input';

interface EditValues {
  buy_price: string;
  sell_price: string;
  stop_loss: string;
  no_of_cycle: string;
}

function valuesOf(cycle: LiveCycle | null): EditValues {
  return {
    buy_price: cycle ? String(cycle.buy_price) : '',
    sell_price: cycle ? String(cycle.sell_price) : '',
    stop_loss: cycle?.stop_loss === null || !cycle ? '' : String(cycle.stop_loss),
    no_of_cycle: cycle ? String(cycle.no_of_cycle) : '',
  };
}

/** The shared edit schema, which holds 'Stop loss cannot be more than the buy price.' (docs/spec/02-bots-wallet-account.md §5). */
function editResolver(cycleId: () => string): Resolver<EditValues> {
  const schema = zodResolver(editCycleInputSchema) as unknown as Resolver<EditValues & { cycle_id: string }>;
  return async (values, context, options) => {
    const result = await schema({ ...values, cycle_id: cycleId() }, context, options as never);
    if (Object.keys(result.errors).length > 0) return { values: {}, errors: result.errors };
    return { values, errors: {} };
  };
}

function toPayload(cycleId: string, values: EditValues): EditCycleInput {
  const stopLoss = values.stop_loss.trim();
  return {
    cycle_id: cycleId,
    buy_price: Number(values.buy_price),
    sell_price: Number(values.sell_price),
    // null clears a stop loss that was set.
    stop_loss: stopLoss === '' ? null : Number(stopLoss),
    no_of_cycle: Number(values.no_of_cycle),
  };
}

interface EditCycleDialogProps {
  open: boolean;
  /** Kept while the dialog closes, so its content does not vanish during the exit transition. */
  cycle: LiveCycle | null;
  onClose: () => void;
}

/** docs/spec/02-bots-wallet-account.md Edit cycle: buy, sell and stop-loss prices and the cycle count. */
export function EditCycleDialog({ open, cycle, onClose }: EditCycleDialogProps) {
  const cycleId = cycle?.id ?? '';
  const idRef = useRef(cycleId);
  idRef.current = cycleId;
  const edit = useEditCycle();
  const { register, handleSubmit, reset, formState } = useForm<EditValues>({
    defaultValues: valuesOf(cycle),
    resolver: editResolver(() => idRef.current),
  });
  const { errors } = formState;

  // Each opening starts from the cycle's current values, not from a later refresh.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on opening, not on every refresh
  useEffect(() => {
    if (open && cycle) reset(valuesOf(cycle));
  }, [open, cycleId]);

  const onSave = handleSubmit((values) => {
    edit.mutate(toPayload(cycleId, values), {
      onSuccess: () => {
        toast.success(cycleMessages.updated, { id: 'cycle-edit' });
        onClose();
      },
      onError: (error) => {
        const { title, description } = failureToast(
          error,
          cycleMessages.updateFailed,
          cycleMessages.updateError,
        );
        toast.error(title, { id: 'cycle-edit', description });
      },
    });
  });

  return (
    <Modal
      open={open}
      onClose={edit.isPending ? undefined : onClose}
      title="Edit Cycle"
      description={cycle ? `${formatPair(cycle.pair)} · ${cycle.category}` : undefined}
      size="sm"
    >
      {cycle ? (
        <form noValidate onSubmit={onSave} className="space-y-4">
          <LivePriceRow testId="edit-cycle-live-price">{formatPrice(Number(cycle.liveprice))}</LivePriceRow>
          <NumberInput label="Buy Price" error={errors.buy_price?.message} {...register('buy_price')} />
          <NumberInput label="Sell Price" error={errors.sell_price?.message} {...register('sell_price')} />
          <NumberInput
            label="Stop Loss"
            placeholder="Optional"
            error={errors.stop_loss?.message}
            {...register('stop_loss')}
          />
          <CycleCountInput
            label="Number of Cycles"
            hint={`${cycle.cycles_completed} completed so far`}
            error={errors.no_of_cycle?.message}
            {...register('no_of_cycle')}
          />
          <div className="flex justify-end gap-2 pt-1">
            <Button variant="outline" onClick={onClose} disabled={edit.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={edit.isPending}>
              Save Changes
            </Button>
          </div>
        </form>
      ) : null}
    </Modal>
  );
}
