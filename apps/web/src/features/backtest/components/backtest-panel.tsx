import type { GridBacktestInput } from '@gridbot/engine';
import { candleHistoryMessages, type HistoryInterval, SYMBOLS } from '@gridbot/shared';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { LeverageInput } from '../../../components/ui/market-fields';
import { NumberInput } from '../../../components/ui/number-input';
import { SelectField } from '../../../components/ui/select-field';
import { formatPair } from '../../../lib/format';
import { useCandleCoverage } from '../api/candle-coverage';
import { type BacktestRequest, backtestKey, useBacktest } from '../hooks/use-backtest';
import type { HistoryPeriod } from '../lib/backtest-runner';
import { candlesText, periodChoices, sourceText } from '../lib/history-period';
import { pickedLeverage } from '../lib/picked-leverage';
import { BACKTEST_DESCRIPTION, SourceLinePlaceholder } from './backtest-panel-placeholder';
import { BacktestResults } from './backtest-results';

const DAY = 86_400_000;

/** What to backtest: the strategy (stored format, with its type) on a pair with an amount and settings. */
export interface BacktestSubject extends Omit<GridBacktestInput, 'investment' | 'strategy'> {
  strategy: unknown | null;
  investment: number | null;
}

export interface BacktestPanelProps {
  subject: BacktestSubject;
  /** Shown above the panel's controls. */
  description?: string;
  /**
   * The panel asks for the pair, category, leverage (futures) and amount itself (strategy editors, My
   * Strategies, Copy BOTs).
   */
  pickMarket?: boolean;
  /** Extra content below the results (the sweep), given the request the panel would run. */
  renderExtra?: (request: BacktestRequest | null) => ReactNode;
}

const PICK_DEFAULTS = { symbol: 'BTCUSDT', category: 'spot' as const, investment: '1000' };

/** The most recent `days` of the first period with candles (real history before the simulated record). */
export function periodOf(
  spans: readonly { fromMs: number; toMs: number }[],
  days: number,
): { fromMs: number; toMs: number } | null {
  const span = spans[0];
  if (!span) return null;
  return { fromMs: Math.max(span.fromMs, span.toMs - days * DAY), toMs: span.toMs };
}

/**
 * Backtest before you start (docs/product.md, Backtest): runs the strategy on the pair's history in a worker
 * and shows the report. After the first run, a change of the strategy or its settings runs it again.
 */
export default function BacktestPanel({
  subject: given,
  description,
  pickMarket,
  renderExtra,
}: BacktestPanelProps) {
  const [picked, setPicked] = useState({
    symbol: given.symbol || PICK_DEFAULTS.symbol,
    category: given.category ?? PICK_DEFAULTS.category,
    investment: given.investment ? String(given.investment) : PICK_DEFAULTS.investment,
    leverage: String(given.leverage ?? 1),
  });
  const leverage = pickedLeverage(picked.leverage);
  const subject = useMemo<BacktestSubject>(() => {
    if (!pickMarket) return given;
    const amount = Number(picked.investment);
    return {
      ...given,
      symbol: picked.symbol,
      category: picked.category,
      investment: Number.isFinite(amount) && amount > 0 ? amount : null,
      leverage: picked.category === 'future' && leverage.ok ? leverage.leverage : null,
    };
  }, [given, pickMarket, picked, leverage]);
  // A futures backtest needs a valid leverage: none runs at a leverage the user did not choose.
  const leverageBlocked = pickMarket === true && picked.category === 'future' && !leverage.ok;
  const [interval, setCandleInterval] = useState<HistoryInterval>('1h');
  const [chosenDays, setDays] = useState<number>(90);
  const coverage = useCandleCoverage(subject.symbol, subject.category, interval);
  // Real history first: the panel runs on the first span the source has.
  const span = coverage.data?.[0];
  // The periods the span covers and one request may carry (MAX_HISTORY_CANDLES), else the whole span.
  const periods = span ? periodChoices(span, interval) : [];
  const days = periods.some((p) => p.days === chosenDays)
    ? chosenDays
    : (periods[periods.length - 1]?.days ?? chosenDays);
  const source = span ? sourceText(span.source) : null;
  const { state, run, cancel } = useBacktest();
  const [armed, setArmed] = useState(false);

  const request = useMemo<BacktestRequest | null>(() => {
    if (!subject.strategy || !(subject.investment && subject.investment > 0) || !subject.symbol) return null;
    if (leverageBlocked) return null;
    const range = coverage.data && periods.length > 0 ? periodOf(coverage.data, days) : null;
    if (!range) return null;
    const period: HistoryPeriod = { symbol: subject.symbol, category: subject.category, interval, ...range };
    const { strategy, investment, ...rest } = subject;
    return { period, input: { ...rest, strategy, investment } };
  }, [subject, coverage.data, days, interval, leverageBlocked, periods.length]);

  // Reruns on a change once the user ran it, a little after the last keystroke.
  const key = request ? backtestKey(request) : null;
  const lastRun = useRef<string | null>(null);
  useEffect(() => {
    if (!armed || !request || key === lastRun.current) return;
    const timer = setTimeout(() => {
      lastRun.current = key;
      run(request);
    }, 400);
    return () => clearTimeout(timer);
  }, [armed, key, request, run]);

  const start = () => {
    if (!request) return;
    lastRun.current = key;
    setArmed(true);
    run(request);
  };

  const missing = !subject.strategy
    ? 'Choose a strategy to backtest it.'
    : !(subject.investment && subject.investment > 0)
      ? 'Enter an amount to backtest the strategy with it.'
      : null;
  const noData =
    coverage.data && coverage.data.length === 0
      ? candleHistoryMessages.noCandles(subject.symbol, interval)
      : null;

  return (
    <Card data-testid="backtest-panel">
      <CardHeader title="Backtest" description={description ?? BACKTEST_DESCRIPTION} />
      <div className="space-y-4 px-5 py-4">
        {pickMarket ? (
          <div
            className={`grid grid-cols-2 gap-3 ${picked.category === 'future' ? 'sm:grid-cols-4' : 'sm:grid-cols-3'}`}
          >
            <SelectField
              label="Backtest pair"
              value={picked.symbol}
              onChange={(e) => setPicked((p) => ({ ...p, symbol: e.target.value }))}
            >
              {SYMBOLS.map((s) => (
                <option key={s} value={s}>
                  {formatPair(s)}
                </option>
              ))}
            </SelectField>
            <SelectField
              label="Market"
              value={picked.category}
              onChange={(e) => setPicked((p) => ({ ...p, category: e.target.value as 'spot' | 'future' }))}
            >
              <option value="spot">Spot</option>
              <option value="future">Futures</option>
            </SelectField>
            {picked.category === 'future' ? (
              <LeverageInput
                value={picked.leverage}
                error={leverage.ok ? undefined : leverage.message}
                onChange={(e) => setPicked((p) => ({ ...p, leverage: e.target.value }))}
                data-testid="backtest-leverage"
              />
            ) : null}
            <div className={picked.category === 'future' ? '' : 'col-span-2 sm:col-span-1'}>
              <NumberInput
                label="Amount (USDT)"
                value={picked.investment}
                onChange={(e) => setPicked((p) => ({ ...p, investment: e.target.value }))}
              />
            </div>
          </div>
        ) : null}
        {/* The button on a row of its own: beside two selects in the form's side column, "All 21 days" was cut. */}
        <div className="grid grid-cols-2 gap-3">
          <SelectField
            label="Candles"
            value={interval}
            onChange={(e) => setCandleInterval(e.target.value as HistoryInterval)}
          >
            <option value="1h">1 hour</option>
            <option value="15m">15 minutes</option>
            <option value="1m">1 minute</option>
          </SelectField>
          <SelectField
            label="Period"
            value={String(days)}
            disabled={periods.length === 0}
            onChange={(e) => setDays(Number(e.target.value))}
          >
            {periods.map((p) => (
              <option key={p.days} value={p.days}>
                {p.label}
              </option>
            ))}
          </SelectField>
          {state.status === 'running' ? (
            <Button type="button" variant="outline" className="col-span-2" onClick={cancel}>
              Cancel
            </Button>
          ) : (
            <Button
              type="button"
              variant="secondary"
              className="col-span-2"
              disabled={!request}
              onClick={start}
              data-testid="backtest-run"
            >
              Run backtest
            </Button>
          )}
        </div>
        {request && source ? (
          <p className="text-xs text-muted" data-testid="backtest-source">
            {candlesText(request.period, interval)} ·{' '}
            <span className={source.real ? undefined : 'font-semibold text-fg'}>{source.text}</span>
            {state.status === 'idle' ? ' · run in your browser.' : ''}
          </p>
        ) : !missing && coverage.isPending ? (
          <SourceLinePlaceholder />
        ) : null}
        {missing ? <p className="text-sm text-muted">{missing}</p> : null}
        {!missing && noData ? (
          <p className="text-sm text-down" role="alert" data-testid="backtest-no-data">
            {noData}
          </p>
        ) : null}
        {coverage.isError ? (
          <p className="text-sm text-down" role="alert">
            The price history could not be loaded. Please try again.
          </p>
        ) : null}
        {state.status === 'running' ? (
          <div aria-live="polite" data-testid="backtest-progress">
            <div className="h-2 overflow-hidden rounded-full bg-surface-2">
              <div
                className="h-full rounded-full bg-primary transition-[width] duration-150"
                style={{ width: `${Math.round(state.progress * 100)}%` }}
              />
            </div>
            <p className="mt-1 text-xs text-muted">
              {state.progress === 0
                ? 'Loading price history…'
                : `Backtesting… ${Math.round(state.progress * 100)} %`}
            </p>
          </div>
        ) : null}
        {state.status === 'error' ? (
          <p className="text-sm text-down" role="alert" data-testid="backtest-error">
            {state.message}
          </p>
        ) : null}
        {state.status === 'done' ? <BacktestResults result={state.result} candles={state.candles} /> : null}
        {renderExtra?.(request)}
      </div>
    </Card>
  );
}
