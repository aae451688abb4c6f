import { cycleFeeWarning, cycleMessages, MAX_CYCLE_COUNT, SYMBOLS } from '@gridbot/shared';
import { type ReactNode, useEffect, useRef } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { CategoryOptions, LeverageInput, PairOptions } from '../../../components/ui/market-fields';
import { NumberInput } from '../../../components/ui/number-input';
import { SelectField } from '../../../components/ui/select-field';
import { SettingsFormCard } from '../../../components/ui/settings-form-card';
import { FeeWarning, StartBlockers } from '../../../components/ui/start-blockers';
import { formatPrice } from '../../../lib/format';
import { useStartCheck } from '../../../lib/start-check';
import { toast } from '../../../lib/toast';
import { useCyclePrice, useStartCycle } from '../api/cycles';
import { startCycleErrorMessage } from '../lib/cycle-errors';
import {
  emptyStartCycleForm,
  type StartCycleFormValues,
  startCycleResolver,
  suggestedPrices,
  toStartCyclePayload,
} from '../lib/cycle-form';
import { CycleCountInput } from './cycle-count-input';

/** One toast for the latest start: a second click replaces it instead of stacking another. */
const START_TOAST = 'cycle-start';

interface StartCycleFormProps {
  /** The Market Overview chart of the chosen pair, composed by the route (features do not import each other). */
  renderChart?: (pair: string, category: 'Spot' | 'Future') => ReactNode;
}

/** docs/spec/02-bots-wallet-account.md Start Cycle: category, pair, amount, buy, sell and stop-loss prices, cycle count, leverage. */
export function StartCycleForm({ renderChart }: StartCycleFormProps) {
  const form = useForm<StartCycleFormValues>({
    defaultValues: emptyStartCycleForm,
    resolver: startCycleResolver(),
  });
  const { control, register, handleSubmit, watch, setValue, formState } = form;
  const { errors } = formState;
  const category = watch('category');
  const pair = watch('pair');
  const livePrice = useCyclePrice(pair, category);
  const start = useStartCycle();
  // What would refuse the start (keys in Binance mode, profit limit, a bot on the pair, an empty wallet), shown
  // before the form is filled in, as on Start BOT.
  const check = useStartCheck({ category, pair });

  // docs/spec/02-bots-wallet-account.md §9: suggested prices are filled once per pair and market, when its live price arrives; later
  // price refreshes leave what the user typed alone.
  const suggestedFor = useRef('');
  useEffect(() => {
    const key = `${category}:${pair}`;
    if (livePrice.data === undefined || !Number.isFinite(livePrice.data) || suggestedFor.current === key)
      return;
    suggestedFor.current = key;
    const suggested = suggestedPrices(livePrice.data, pair, category);
    setValue('priceReachAt', suggested.priceReachAt, { shouldValidate: formState.isSubmitted });
    setValue('sellPriceAt', suggested.sellPriceAt, { shouldValidate: formState.isSubmitted });
    setValue('stopLossAt', suggested.stopLossAt, { shouldValidate: formState.isSubmitted });
  }, [livePrice.data, pair, category, setValue, formState.isSubmitted]);

  const onSubmit = handleSubmit((values) => {
    start.mutate(toStartCyclePayload(values), {
      onSuccess: () => {
        toast.success(cycleMessages.starting, { id: START_TOAST });
      },
      onError: (error) => {
        toast.error(startCycleErrorMessage(error), { id: START_TOAST });
      },
    });
  });

  return (
    <SettingsFormCard
      title="Cycle settings"
      description="Buy once the price falls to your buy price, sell at your sell price, and repeat."
      onSubmit={onSubmit}
      chart={renderChart?.(pair || 'BTCUSDT', category)}
    >
      <StartBlockers title="This cycle cannot start yet" blockers={check.data?.blockers ?? []} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Controller
          control={control}
          name="category"
          render={({ field }) => (
            <SelectField label="Category" error={errors.category?.message} {...field}>
              <CategoryOptions />
            </SelectField>
          )}
        />
        <Controller
          control={control}
          name="pair"
          render={({ field }) => (
            <SelectField label="Pair" error={errors.pair?.message} {...field}>
              <PairOptions pairs={SYMBOLS} />
            </SelectField>
          )}
        />
      </div>
      <div className="flex items-center justify-between gap-3 rounded-lg bg-surface-2 px-4 py-3 text-sm">
        <span className="text-muted">Live price</span>
        <span className="font-semibold text-fg tabular-nums" data-testid="cycle-live-price">
          {pair === '' || livePrice.data === undefined ? '—' : `${formatPrice(livePrice.data)} USDT`}
        </span>
      </div>
      <NumberInput
        label="Amount (USDT)"
        placeholder="Quote amount each buy spends"
        error={errors.amount?.message}
        {...register('amount')}
      />
      {category === 'Future' ? (
        <LeverageInput error={errors.leverage?.message} {...register('leverage')} />
      ) : null}
      <fieldset className="space-y-3 rounded-lg border border-line p-4">
        <legend className="px-1 text-sm font-semibold text-fg">Prices</legend>
        <p className="text-xs text-muted">
          Suggested from the live price: buy 5% below, sell 5% above, stop loss 20% below.
        </p>
        <div className="grid gap-3 sm:grid-cols-2">
          <NumberInput
            label="Buy when price reaches"
            error={errors.priceReachAt?.message}
            {...register('priceReachAt')}
          />
          <NumberInput label="Sell price" error={errors.sellPriceAt?.message} {...register('sellPriceAt')} />
        </div>
        <FeeWarning
          text={cycleFeeWarning(
            watch('priceReachAt'),
            watch('sellPriceAt'),
            category === 'Future' ? 'future' : 'spot',
          )}
        />
        <NumberInput
          label="Stop loss (optional)"
          placeholder="No stop loss"
          error={errors.stopLossAt?.message}
          {...register('stopLossAt')}
        />
      </fieldset>
      <CycleCountInput
        label="Number of cycles"
        placeholder={`1 – ${MAX_CYCLE_COUNT}`}
        error={errors.cycleCount?.message}
        {...register('cycleCount')}
      />
      <Button type="submit" fullWidth size="lg" loading={start.isPending}>
        {start.isPending ? 'Starting...' : 'Start Cycle'}
      </Button>
    </SettingsFormCard>
  );
}
