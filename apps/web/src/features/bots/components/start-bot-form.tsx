import {
  botMessages,
  DEFAULT_MINIMUM_BOT_AMOUNT,
  minimumForGrids,
  type StoredStrategy,
} from '@gridbot/shared';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { CategoryOptions, LeverageInput, PairOptions } from '../../../components/ui/market-fields';
import { NumberInput } from '../../../components/ui/number-input';
import { SelectField } from '../../../components/ui/select-field';
import { SettingsFormCard } from '../../../components/ui/settings-form-card';
import { FeeWarning, StartBlockers } from '../../../components/ui/start-blockers';
import { isApiError } from '../../../lib/api-client';
import { formatPrice, formatUsd } from '../../../lib/format';
import { START_BOT_SCREEN } from '../../../lib/start-bot-link';
import { useStartCheck } from '../../../lib/start-check';
import { toast } from '../../../lib/toast';
import { botKindOf } from '../api/bot-paths';
import {
  useGridCount,
  useLivePrice,
  useMinimumBotAmount,
  useStartBot,
  useStrategyChoices,
  useSymbolPairs,
} from '../api/start-bot';
import {
  fixedBotTypeOf,
  type StartBotFormValues,
  startBotResolver,
  toPayload,
  valuesFromQuery,
} from '../lib/start-bot-form';

/** Where a Scalping bot starts from: a Scalping strategy's Start on My Strategies. */
const SCALPING_STRATEGIES_SCREEN = '/mystrategies?tab=scalping';

/** docs/spec/01-core-screens.md §8: what a failed start says. */
export function startErrorMessage(error: unknown): string {
  if (!isApiError(error)) return botMessages.submitFailed;
  if (error.status === 0) return botMessages.noResponse;
  if (error.status === 500) return botMessages.invalidKeys;
  if (error.status === 400 && error.message.includes(botMessages.insufficientBalance)) return error.message;
  return error.fromServer ? error.message : botMessages.startError;
}

/** What the form would start, for a backtest before the Start button. */
export interface StartBacktestSubject {
  symbol: string;
  category: 'spot' | 'future';
  strategy: StoredStrategy | null;
  investment: number | null;
  leverage: number | null;
  stoplossPrice: number | null;
  pausePrice: number | null;
  restartPrice: number | null;
  profitBookPct: number | null;
}

interface StartBotFormProps {
  /** The Market Overview chart of the chosen pair, composed by the route (features do not import each other). */
  renderChart?: (pair: string, category: 'Spot' | 'Future') => ReactNode;
  /** The backtest of what the form would start, composed by the route. */
  renderBacktest?: (subject: StartBacktestSubject) => ReactNode;
  /** Opens the transfer dialog over the form (composed by the route), for an empty futures wallet. */
  onTransfer?: () => void;
}

/** A typed optional number: empty or not a number is null. */
function optionalNumber(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** docs/spec/01-core-screens.md Start New Bot: type, category, pair, strategy, amount, leverage, limits and the risk checkbox. */
export function StartBotForm({ renderChart, renderBacktest, onTransfer }: StartBotFormProps) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [agreed, setAgreed] = useState(false);
  const fixedBotType = fixedBotTypeOf(params);
  const minimum = useMinimumBotAmount();
  const rules = useRef({
    minimum: DEFAULT_MINIMUM_BOT_AMOUNT,
    grids: undefined as number | undefined,
    free: undefined as { usdt: number; wallet: 'spot' | 'futures' } | undefined,
    livePrice: null as number | null,
  });

  const form = useForm<StartBotFormValues>({
    defaultValues: valuesFromQuery(params),
    resolver: startBotResolver(() => rules.current),
  });
  const { control, register, handleSubmit, watch, setValue, formState } = form;
  const { errors } = formState;
  const botType = watch('botType');
  const category = watch('category');
  const pair = watch('selectPair');
  const strategyName = watch('myStrategy');
  const kind = botKindOf(botType);

  const pairs = useSymbolPairs();
  const strategies = useStrategyChoices(kind);
  const grids = useGridCount(kind, botType ? strategyName : '');
  const livePrice = useLivePrice(pair, category || 'Spot');
  const start = useStartBot();
  const check = useStartCheck({ category, pair, botType, strategy: strategyName });
  const freeUsdt = check.data?.freeUsdt;

  const serverMinimum = minimum.data ?? DEFAULT_MINIMUM_BOT_AMOUNT;
  rules.current = {
    minimum: serverMinimum,
    grids: grids.data,
    free:
      freeUsdt === null || freeUsdt === undefined
        ? undefined
        : { usdt: Number(freeUsdt), wallet: category === 'Future' ? 'futures' : 'spot' },
    livePrice: livePrice.data ?? null,
  };

  useEffect(() => {
    if (minimum.isError) toast.error(botMessages.minimumFetchFailed, { id: 'minimum-bot-amount' });
  }, [minimum.isError]);

  const known = [...strategies.own, ...strategies.system].map((s) => s.strategy_name);
  const onSubmit = handleSubmit((values) => {
    start.mutate(
      { kind: botKindOf(values.botType), payload: toPayload(values) },
      {
        onSuccess: () => {
          toast.success(botMessages.botStarting);
          void navigate('/dashboard');
        },
        onError: (error) => {
          toast.error(startErrorMessage(error));
        },
      },
    );
  });

  const [amount, leverage, profitbookat, sellPausePrice, restartPrice, stoplossPrice] = watch([
    'amount',
    'leverage',
    'profitbookat',
    'sellPausePrice',
    'restartPrice',
    'stoplossPrice',
  ]);
  const chosenStrategy =
    [...strategies.own, ...strategies.system].find((s) => s.strategy_name === strategyName) ?? null;
  const backtestSubject = useMemo<StartBacktestSubject>(
    () => ({
      symbol: pair,
      category: category === 'Future' ? 'future' : 'spot',
      strategy: chosenStrategy,
      investment: optionalNumber(amount),
      leverage: category === 'Future' ? optionalNumber(leverage) : null,
      stoplossPrice: optionalNumber(stoplossPrice),
      pausePrice: optionalNumber(sellPausePrice),
      restartPrice: optionalNumber(restartPrice),
      profitBookPct: optionalNumber(profitbookat),
    }),
    [
      pair,
      category,
      chosenStrategy,
      amount,
      leverage,
      stoplossPrice,
      sellPausePrice,
      restartPrice,
      profitbookat,
    ],
  );

  const gridMinimum = grids.data ? minimumForGrids(grids.data) : undefined;
  const pairOptions = pairs.data ?? (pair ? [pair] : []);

  return (
    <SettingsFormCard
      title="Bot settings"
      description="Choose the market, a strategy and the amount it trades."
      onSubmit={onSubmit}
      chart={renderChart?.(pair, category === 'Future' ? 'Future' : 'Spot')}
    >
      <StartBlockers
        title="This bot cannot start yet"
        blockers={check.data?.blockers ?? []}
        actions={onTransfer ? { futures_empty: onTransfer } : undefined}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Controller
          control={control}
          name="botType"
          render={({ field }) =>
            fixedBotType ? (
              <SelectField
                label="Bot type"
                error={errors.botType?.message}
                hint={
                  <span data-testid="bot-type-fixed">
                    Set by the Scalping strategy you chose.{' '}
                    <Link
                      to={START_BOT_SCREEN}
                      className="font-semibold text-primary underline underline-offset-2"
                    >
                      Start a Multigrid bot instead
                    </Link>
                  </span>
                }
                {...field}
                disabled
              >
                <option value="Scalping">Scalping Grid</option>
              </SelectField>
            ) : (
              <SelectField
                label="Bot type"
                error={errors.botType?.message}
                hint={
                  <span>
                    Scalping bots start from a Scalping strategy:{' '}
                    <Link
                      to={SCALPING_STRATEGIES_SCREEN}
                      className="font-semibold text-primary underline underline-offset-2"
                    >
                      My Strategies, Scalping
                    </Link>
                    , then Start.
                  </span>
                }
                {...field}
                onChange={(event) => {
                  field.onChange(event);
                  setValue('myStrategy', '');
                }}
              >
                <option value="">Select bot type</option>
                <option value="Multigrid">Advanced Multigrid</option>
                <option value="Scalping" disabled>
                  Scalping Grid (coming soon...)
                </option>
              </SelectField>
            )
          }
        />
        <Controller
          control={control}
          name="category"
          render={({ field }) => (
            <SelectField label="Category" error={errors.category?.message} {...field}>
              <CategoryOptions placeholder="Select category" />
            </SelectField>
          )}
        />
      </div>
      <Controller
        control={control}
        name="selectPair"
        render={({ field }) => (
          <SelectField
            label="Pair"
            error={errors.selectPair?.message}
            hint={
              pair && livePrice.data !== undefined ? (
                <span>
                  Live price{' '}
                  <span className="font-semibold text-fg tabular-nums" data-testid="live-price">
                    {formatPrice(livePrice.data)}
                  </span>{' '}
                  USDT
                </span>
              ) : undefined
            }
            {...field}
          >
            <PairOptions pairs={pairOptions} />
          </SelectField>
        )}
      />
      <Controller
        control={control}
        name="myStrategy"
        render={({ field }) => (
          <SelectField
            label="Strategy"
            error={errors.myStrategy?.message}
            hint={grids.data ? `${grids.data} grids` : undefined}
            disabled={!botType}
            {...field}
          >
            <option value="">{botType ? 'Select strategy' : 'Select bot type first'}</option>
            {strategyName && !known.includes(strategyName) ? (
              <option value={strategyName}>{strategyName}</option>
            ) : null}
            {strategies.own.length > 0 ? (
              <optgroup label="My Strategies">
                {strategies.own.map((s) => (
                  <option key={s._id} value={s.strategy_name}>
                    {s.strategy_name}
                  </option>
                ))}
              </optgroup>
            ) : null}
            {strategies.system.length > 0 ? (
              <optgroup label="System Strategies">
                {strategies.system.map((s) => (
                  <option key={s._id} value={s.strategy_name}>
                    {s.strategy_name}
                  </option>
                ))}
              </optgroup>
            ) : null}
          </SelectField>
        )}
      />
      <FeeWarning text={check.data?.feeWarning} />
      <NumberInput
        label="Amount (USDT)"
        placeholder={String(Math.max(serverMinimum, gridMinimum ?? 0))}
        error={errors.amount?.message}
        labelAside={
          <span data-testid="amount-minimums" className="text-right text-xs text-muted">
            Minimum bot amount: ${serverMinimum}
            {gridMinimum !== undefined ? ` · Minimum for ${grids.data} grids: $${gridMinimum}` : ''}
            {rules.current.free ? (
              <span data-testid="free-usdt">
                {' '}
                · Free in {rules.current.free.wallet}: {formatUsd(rules.current.free.usdt)}
              </span>
            ) : null}
          </span>
        }
        {...register('amount')}
      />
      {category === 'Future' ? (
        <LeverageInput error={errors.leverage?.message} {...register('leverage')} />
      ) : null}
      <NumberInput
        label="Profit book & stop at (%)"
        min={1}
        max={1000}
        placeholder="Optional, 1 – 1000"
        error={errors.profitbookat?.message}
        {...register('profitbookat')}
      />
      <fieldset className="space-y-3 rounded-lg border border-line p-4">
        <legend className="px-1 text-sm font-semibold text-fg">Price limits (optional)</legend>
        <NumberInput
          label="Sell All And Pause Price"
          placeholder="Above the live price"
          error={errors.sellPausePrice?.message}
          {...register('sellPausePrice')}
        />
        <NumberInput
          label="Restart Price"
          placeholder="Restart after a pause"
          error={errors.restartPrice?.message}
          {...register('restartPrice')}
        />
        <NumberInput
          label="Stoploss Price"
          placeholder="Below the live price"
          error={errors.stoplossPrice?.message}
          {...register('stoplossPrice')}
        />
      </fieldset>
      {renderBacktest?.(backtestSubject)}
      <label className="flex items-start gap-3 rounded-lg bg-surface-2 p-3 text-sm text-muted">
        <input
          type="checkbox"
          checked={agreed}
          onChange={(event) => setAgreed(event.target.checked)}
          className="mt-0.5 size-4 shrink-0 accent-(--primary)"
        />
        <span>
          I understand the risks: crypto trading is volatile, profits are not guaranteed, and I start this bot
          on my own exchange account at my own risk.
        </span>
      </label>
      <Button type="submit" fullWidth size="lg" disabled={!agreed} loading={start.isPending}>
        {start.isPending ? 'Starting...' : 'Start'}
      </Button>
    </SettingsFormCard>
  );
}
