import {
  compileRules,
  previewRange,
  type RangePreviewResult,
  rangeStartPrice,
  suggestRange,
} from '@gridbot/engine';
import { botMessages, findMarketRules, roundToTick } from '@gridbot/shared';
import { clsx } from 'clsx';
import { type ReactNode, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { AlertIcon } from '../../../components/ui/icons';
import { CategoryOptions, PairOptions } from '../../../components/ui/market-fields';
import { Modal } from '../../../components/ui/modal';
import { NumberInput } from '../../../components/ui/number-input';
import { SelectField } from '../../../components/ui/select-field';
import { SettingsFormCard } from '../../../components/ui/settings-form-card';
import { formatPair, formatPrice, formatQty, formatUsd } from '../../../lib/format';
import { readStartGridLink } from '../../../lib/start-grid-link';
import { toast } from '../../../lib/toast';
import { getHourlyHistory, useGridLivePrice, useStartGrid, useSymbolPairs } from '../api/grid-api';
import { carryRange, type RangeValues } from '../lib/carry-range';
import { type RenderGridChart, startFormLevels } from '../lib/grid-chart';
import { gridErrorMessage } from '../lib/grid-errors';
import { checkGridForm, emptyGridForm, type GridField, type GridFormValues } from '../lib/grid-form';
import type { GridSuggestionBacktest } from '../lib/suggestion-periods';
import { suggestionPeriods } from '../lib/suggestion-periods';

const DAY_MS = 86_400_000;

interface StartGridFormProps {
  /** The pair's candles with the grid's lines, lower and upper draggable; app/ composes the market chart. */
  renderChart?: RenderGridChart;
  /**
   * The backtest of a suggestion, in-sample and out-of-sample, and its sweep, whose pick `apply` writes into the
   * form as `carry` moves it onto today's range (the sweep runs on the earlier period); app/ composes the
   * backtest feature.
   */
  renderSuggestionBacktest?: (
    subject: GridSuggestionBacktest,
    apply: (values: RangeValues) => void,
    carry: (values: RangeValues) => RangeValues,
  ) => ReactNode;
  /**
   * The parameter sweep of the form's own grid (lower × upper × grid count on the 30 days before the last 30,
   * the pick then on the last 30), whose pick `apply` writes into the form; app/ composes the backtest feature.
   */
  renderSweep?: (
    subject: GridSuggestionBacktest,
    apply: (values: { lower: number; upper: number; grids: number }) => void,
  ) => ReactNode;
}

/** The sweep's two periods: the earlier one it fits on, the last one it is tried on. */
const SWEEP_PERIOD_MS = 30 * 86_400_000;

/** A typed number, or null when blank or not a number. */
function numberOf(text: string): number | null {
  if (text.trim() === '') return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/**
 * Start Grid (docs/trading-rules.md §2.6): the exchanges' Spot Grid and Futures Grid. The preview beside the
 * fields is the engine's own (`previewRange`): what the start would do at the live price (at the trigger price
 * when one is set: the grid starts, and sizes its orders, where the price crosses it), or the engine's reasons
 * it would refuse.
 */
export function StartGridForm({ renderChart, renderSuggestionBacktest, renderSweep }: StartGridFormProps) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // A copied grid (Copy BOTs) opens with its parameters; the user checks or changes them and adds the amount.
  const [values, setValues] = useState<GridFormValues>(() => ({
    ...emptyGridForm,
    ...readStartGridLink(params),
  }));
  const [submitted, setSubmitted] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // Open when a copied grid brings stops or trailing, so the user sees all that will start.
  const [advanced, setAdvanced] = useState(
    () =>
      values.stopLoss !== '' ||
      values.takeProfit !== '' ||
      values.trailingUp ||
      values.trailingDown ||
      !values.sellOnStop,
  );
  const [suggesting, setSuggesting] = useState<7 | 30 | null>(null);
  const [sweeping, setSweeping] = useState(false);
  const [suggestion, setSuggestion] = useState<{
    note: string;
    backtest: GridSuggestionBacktest | null;
    /** A pick of the suggestion's sweep (earlier period) moved onto the range suggested from the last one. */
    carry: (values: RangeValues) => RangeValues;
  } | null>(null);
  const pairs = useSymbolPairs();
  const livePrice = useGridLivePrice(values.selectPair, values.category || 'Spot');
  const start = useStartGrid();

  const future = values.category === 'Future';
  const market = future ? 'future' : 'spot';
  const set = <K extends GridField>(field: K, value: GridFormValues[K]) =>
    setValues((v) => ({ ...v, [field]: value }));

  const check = useMemo(() => checkGridForm(values), [values]);
  const price = livePrice.data;
  const preview = useMemo<RangePreviewResult | null>(() => {
    if (!check.ok || price === undefined || !Number.isFinite(price)) return null;
    return previewRange(
      {
        strategy: check.input.strategy,
        symbol: check.input.selectPair,
        category: check.input.category === 'Future' ? 'future' : 'spot',
        investment: check.input.amount,
      },
      rangeStartPrice(check.input.strategy, price),
    );
  }, [check, price]);
  const errors = submitted ? check.errors : {};
  const sweepSubject = useMemo<GridSuggestionBacktest | null>(() => {
    if (!check.ok) return null;
    const { strategy, amount, category, selectPair } = check.input;
    const future = category === 'Future';
    return {
      symbol: selectPair,
      category: future ? 'future' : 'spot',
      investment: amount,
      leverage: future ? strategy.leverage : null,
      strategy,
      ...suggestionPeriods(Date.now(), SWEEP_PERIOD_MS),
    };
  }, [check]);

  const levels = useMemo(
    () =>
      startFormLevels({
        lower: numberOf(values.lower),
        upper: numberOf(values.upper),
        levels: preview?.ok ? preview.levels : null,
        nearest: preview?.ok ? preview.nearest : null,
        stopLoss: numberOf(values.stopLoss),
        takeProfit: numberOf(values.takeProfit),
        trigger: numberOf(values.trigger),
      }),
    [values, preview],
  );

  const tickSize = findMarketRules(values.selectPair, market)?.tickSize;
  const onDrag = (key: string, dragged: number) => {
    if (key !== 'lower' && key !== 'upper') return;
    if (!(dragged > 0) || !tickSize) return;
    set(key, roundToTick(dragged, tickSize).toString());
  };

  const suggest = async (days: 7 | 30) => {
    const rules = findMarketRules(values.selectPair, market);
    if (!rules) {
      toast.error(botMessages.pairRequired);
      return;
    }
    setSuggesting(days);
    try {
      const periods = suggestionPeriods(Date.now(), days * DAY_MS);
      const history = await getHourlyHistory(
        values.selectPair,
        market,
        periods.fit.fromMs,
        periods.test.toMs,
      );
      const closesIn = (fromMs: number, toMs: number) =>
        Array.from(history.close).filter((_, i) => {
          const t = history.openTimeMs[i] as number;
          return t >= fromMs && t < toMs;
        });
      const amount = numberOf(values.amount);
      const leverage = future ? (numberOf(values.leverage) ?? 1) : 1;
      const funds = amount !== null && price !== undefined ? { amount: amount * leverage, price } : null;
      const engineRules = compileRules(rules);
      const recent = closesIn(periods.test.fromMs, periods.test.toMs);
      const lastClose = recent[recent.length - 1];
      // The band follows the live price where the market stands apart from the history's last close.
      const anchor = price !== undefined && lastClose !== undefined ? { price, lastClose } : null;
      const latest = suggestRange({
        closes: recent,
        mode: values.mode,
        market,
        rules: engineRules,
        funds,
        anchor,
      });
      if (!latest.ok) {
        toast.error(`No suggestion: ${latest.message}.`);
        return;
      }
      setValues((v) => ({
        ...v,
        lower: String(latest.lower),
        upper: String(latest.upper),
        grids: String(latest.grids),
      }));
      // The same rule on the period before, then tried on the last one: how it did on prices it had not seen.
      const earlier = suggestRange({
        closes: closesIn(periods.fit.fromMs, periods.fit.toMs),
        mode: values.mode,
        market,
        rules: engineRules,
        funds,
      });
      setSuggestion({
        note: `From the last ${days} days${anchor && anchor.price !== anchor.lastClose ? `, moved to the live price ${formatPrice(anchor.price)} (the history ended at ${formatPrice(anchor.lastClose)})` : ''}: ${formatPrice(latest.lower)}–${formatPrice(latest.upper)} held ${latest.heldPct}% of the hourly closes; ${latest.grids} grids, the narrowest ${latest.minSpacingPct}% apart.`,
        backtest:
          earlier.ok && amount !== null
            ? {
                symbol: values.selectPair,
                category: market,
                investment: amount,
                leverage: future ? leverage : null,
                strategy: {
                  type: 'range',
                  lower: earlier.lower,
                  upper: earlier.upper,
                  grids: earlier.grids,
                  mode: values.mode,
                  direction: future ? values.direction : 'long',
                  leverage,
                },
                fit: periods.fit,
                test: periods.test,
              }
            : null,
        carry: (picked) => (earlier.ok ? carryRange(picked, earlier, latest, rules.tickSize) : picked),
      });
    } catch (error) {
      toast.error(gridErrorMessage(error, botMessages.submitFailed));
    } finally {
      setSuggesting(null);
    }
  };

  const applyValues = (picked: RangeValues) =>
    setValues((v) => ({
      ...v,
      lower: String(picked.lower),
      upper: String(picked.upper),
      grids: String(picked.grids),
    }));

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!check.ok || !preview?.ok) return;
    setConfirming(true);
  };

  const onConfirm = () => {
    if (!check.ok) return;
    start.mutate(check.input, {
      onSuccess: (answer) => {
        setConfirming(false);
        toast.success(answer.message);
        void navigate(`/grid-bot/${answer.botID}`);
      },
      onError: (error) => {
        setConfirming(false);
        toast.error(gridErrorMessage(error, botMessages.submitFailed));
      },
    });
  };

  const pairOptions = pairs.data ?? (values.selectPair ? [values.selectPair] : []);
  const field = (name: GridField) => ({
    value: values[name] as string,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(name, e.target.value),
    error: errors[name],
  });

  return (
    <SettingsFormCard
      title="Grid settings"
      description="Limit orders rest between two prices; each fill is answered one level away."
      onSubmit={onSubmit}
      chart={
        renderChart ? (
          <div className="space-y-2">
            {renderChart({
              symbol: values.selectPair || 'BTCUSDT',
              category: market,
              levels,
              draggable: ['lower', 'upper'],
              onDrag,
              ...(price !== undefined ? { livePrice: price } : {}),
            })}
            <p className="text-xs text-muted">
              Drag the Lower and Upper lines on the chart, or type the prices.
            </p>
          </div>
        ) : undefined
      }
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Category"
          value={values.category}
          error={errors.category}
          onChange={(e) => set('category', e.target.value as GridFormValues['category'])}
        >
          <CategoryOptions />
        </SelectField>
        <SelectField
          label="Pair"
          value={values.selectPair}
          error={errors.selectPair}
          onChange={(e) => set('selectPair', e.target.value)}
        >
          <PairOptions pairs={pairOptions} />
        </SelectField>
      </div>
      <p className="text-sm text-muted" data-testid="grid-live-price">
        Price now:{' '}
        <span className="font-semibold text-fg tabular-nums">
          {price === undefined ? '—' : formatPrice(price)}
        </span>
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <NumberInput label="Lower price" {...field('lower')} />
        <NumberInput label="Upper price" {...field('upper')} />
        <NumberInput whole label="Grids" hint="2 to 200" {...field('grids')} />
        <SelectField
          label="Spacing"
          value={values.mode}
          onChange={(e) => set('mode', e.target.value as GridFormValues['mode'])}
        >
          <option value="arithmetic">Arithmetic (equal price steps)</option>
          <option value="geometric">Geometric (equal % steps)</option>
        </SelectField>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm text-muted">Suggest from the last</span>
        <Button
          size="sm"
          variant="outline"
          loading={suggesting === 7}
          disabled={suggesting !== null || !values.selectPair}
          onClick={() => void suggest(7)}
        >
          Suggest 7 days
        </Button>
        <Button
          size="sm"
          variant="outline"
          loading={suggesting === 30}
          disabled={suggesting !== null || !values.selectPair}
          onClick={() => void suggest(30)}
        >
          Suggest 30 days
        </Button>
      </div>
      {suggestion ? (
        <div className="space-y-3 rounded-lg bg-surface-2 p-3 text-xs text-muted">
          <p data-testid="grid-suggestion">{suggestion.note}</p>
          {suggestion.backtest && renderSuggestionBacktest
            ? renderSuggestionBacktest(
                suggestion.backtest,
                (picked) => applyValues(suggestion.carry(picked)),
                suggestion.carry,
              )
            : null}
        </div>
      ) : null}
      <NumberInput label="Investment (USDT)" {...field('amount')} />
      {future ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Direction"
            value={values.direction}
            onChange={(e) => set('direction', e.target.value as GridFormValues['direction'])}
          >
            <option value="long">Long</option>
            <option value="short">Short</option>
            <option value="neutral">Neutral</option>
          </SelectField>
          <NumberInput whole label="Leverage (x)" {...field('leverage')} />
        </div>
      ) : null}

      <button
        type="button"
        className="text-sm font-semibold text-primary"
        aria-expanded={advanced}
        onClick={() => setAdvanced((a) => !a)}
      >
        {advanced ? 'Hide advanced settings' : 'Advanced settings'}
      </button>
      {advanced ? (
        <fieldset className="space-y-4 rounded-lg border border-line p-3">
          <legend className="px-1 text-sm font-medium text-fg">Advanced</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <NumberInput label="Trigger price" hint="Start when the price crosses it" {...field('trigger')} />
            <NumberInput label="Stop-loss price" hint="Below lower" {...field('stopLoss')} />
            <NumberInput label="Take-profit price" hint="Above upper" {...field('takeProfit')} />
          </div>
          <Check
            label={future ? 'Close the position on a stop' : 'Sell the coin on a stop'}
            checked={values.sellOnStop}
            onChange={(on) => set('sellOnStop', on)}
          />
          <Check label="Trailing up" checked={values.trailingUp} onChange={(on) => set('trailingUp', on)} />
          {values.trailingUp ? (
            <NumberInput label="Trailing up limit" hint="Above upper" {...field('trailingUpLimit')} />
          ) : null}
          {future ? (
            <>
              <Check
                label="Trailing down"
                checked={values.trailingDown}
                onChange={(on) => set('trailingDown', on)}
              />
              {values.trailingDown ? (
                <NumberInput label="Trailing down limit" hint="Below lower" {...field('trailingDownLimit')} />
              ) : null}
            </>
          ) : null}
          {errors.direction || errors.trailingUp || errors.trailingDown ? (
            <p className="text-xs font-medium text-down">
              {errors.direction ?? errors.trailingUp ?? errors.trailingDown}
            </p>
          ) : null}
        </fieldset>
      ) : null}

      {renderSweep ? (
        <div className="space-y-3">
          <button
            type="button"
            className="text-sm font-semibold text-primary"
            aria-expanded={sweeping}
            onClick={() => setSweeping((on) => !on)}
          >
            {sweeping ? 'Hide the parameter sweep' : 'Sweep lower, upper and grids on history'}
          </button>
          {sweeping ? (
            sweepSubject ? (
              renderSweep(sweepSubject, applyValues)
            ) : (
              <p className="text-sm text-muted">
                Enter a valid range, grid count and investment to sweep them.
              </p>
            )
          ) : null}
        </div>
      ) : null}

      <GridPreview
        preview={preview}
        category={market}
        symbol={values.selectPair}
        waiting={price === undefined}
        priceError={livePrice.isError}
      />
      <Button type="submit" fullWidth>
        Start
      </Button>
      <Modal
        open={confirming}
        onClose={start.isPending ? undefined : () => setConfirming(false)}
        title="Start this grid?"
        size="sm"
        footer={
          <>
            <Button variant="outline" disabled={start.isPending} onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button loading={start.isPending} onClick={onConfirm}>
              Confirm start
            </Button>
          </>
        }
      >
        {check.ok && preview?.ok ? (
          <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted">Pair</dt>
            <dd className="text-right font-semibold text-fg">
              {formatPair(check.input.selectPair)} {check.input.category}
            </dd>
            <dt className="text-muted">Range</dt>
            <dd className="text-right text-fg tabular-nums">
              {formatPrice(check.input.strategy.lower)}–{formatPrice(check.input.strategy.upper)}
            </dd>
            <dt className="text-muted">Grids</dt>
            <dd className="text-right text-fg tabular-nums">
              {check.input.strategy.grids} {check.input.strategy.mode}
            </dd>
            <dt className="text-muted">Investment</dt>
            <dd className="text-right text-fg tabular-nums">{formatUsd(check.input.amount)}</dd>
            <dt className="text-muted">Quantity per order</dt>
            <dd className="text-right text-fg tabular-nums">{formatQty(preview.qty)}</dd>
          </dl>
        ) : null}
      </Modal>
    </SettingsFormCard>
  );
}

function Check({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-fg">
      <input
        type="checkbox"
        className="size-4 accent-(--primary)"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      {label}
    </label>
  );
}

/** What the start would do, or the engine's reasons it would not start. */
function GridPreview({
  preview,
  category,
  symbol,
  waiting,
  priceError,
}: {
  preview: RangePreviewResult | null;
  category: 'spot' | 'future';
  symbol: string;
  waiting: boolean;
  priceError: boolean;
}) {
  if (preview === null && priceError) {
    return (
      <p role="alert" className="rounded-lg bg-down/10 p-3 text-sm text-fg" data-testid="grid-preview">
        Could not load the price of {symbol}: the grid is worked out at the price, so it cannot start until
        the price comes. It is asked for again every 10 seconds.
      </p>
    );
  }
  if (preview === null) {
    return (
      <p className="rounded-lg bg-surface-2 p-3 text-sm text-muted" data-testid="grid-preview">
        {waiting ? 'Waiting for the price…' : 'Fill in the range, grids and investment to see the grid.'}
      </p>
    );
  }
  if (!preview.ok) {
    return (
      <div
        role="alert"
        data-testid="grid-refusal"
        className="space-y-2 rounded-xl border border-down/40 bg-down/10 p-4 text-sm"
      >
        <p className="flex items-center gap-2 font-semibold text-fg">
          <AlertIcon className="size-5 shrink-0 text-down" />
          This grid cannot start
        </p>
        <ul className="space-y-1 pl-7 text-fg">
          {preview.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      </div>
    );
  }
  const base = symbol.replace(/USDT$/, '');
  const start = preview.startOrder;
  return (
    <div
      className="space-y-2 rounded-xl border border-line bg-surface-2 p-4 text-sm"
      data-testid="grid-preview"
    >
      <Row label="Profit per grid (after fees)">
        {preview.profitPerGridPct.min}% – {preview.profitPerGridPct.max}%
      </Row>
      <Row label="Quantity per order">
        {formatQty(preview.qty)} {base}
      </Row>
      <Row label={category === 'future' ? 'Opened at market at the start' : 'Bought at market at the start'}>
        {start
          ? `${start.side === 'buy' ? 'Buy' : 'Sell'} ${formatQty(start.qty)} ${base} ≈ ${formatUsd(start.quote)}`
          : 'Nothing'}
      </Row>
      <Row label="Orders at the start">
        {preview.buys} buys, {preview.sells} sells
      </Row>
      <Row label={`Fee per order`}>{preview.feePct}%</Row>
      <details>
        <summary className="cursor-pointer text-muted">Levels ({preview.levels.length})</summary>
        <ol
          className="mt-2 grid grid-cols-2 gap-x-4 gap-y-0.5 text-xs tabular-nums sm:grid-cols-3"
          aria-label="Levels"
        >
          {preview.levels.map((p, k) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: a level is its index
              key={k}
              className={clsx(
                k === preview.nearest ? 'text-muted' : k < preview.nearest ? 'text-up' : 'text-down',
              )}
            >
              {formatPrice(p)}
            </li>
          ))}
        </ol>
      </details>
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-4">
      <span className="text-muted">{label}</span>
      <span className="font-semibold text-fg tabular-nums">{children}</span>
    </div>
  );
}
