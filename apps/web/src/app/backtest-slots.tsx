import { lazy, Suspense } from 'react';
import { BacktestPanelPlaceholder } from '../features/backtest/components/backtest-panel-placeholder';
import type { RenderStrategyBacktest } from '../features/strategies/components/strategy-form';

// The backtest (engine, charts, workers) loads only when a screen shows it.
const BacktestPanel = lazy(() => import('../features/backtest/components/backtest-panel'));
const SweepPanel = lazy(() => import('../features/backtest/components/sweep-panel'));

export function BacktestFallback() {
  return <div className="h-40 animate-pulse rounded-xl bg-surface-2" />;
}

const EDITOR_DESCRIPTION =
  "Try this table on the pair's price history before saving it: a change to the table runs the backtest again.";

/**
 * The backtest of a strategy editor's table, saved or not (docs/product.md, Backtest): the user picks the pair,
 * market, leverage and amount in the panel; with `apply`, the sweep below it can write its best values into the table.
 */
export const strategyEditorBacktest: RenderStrategyBacktest = (strategy, apply) => (
  <Suspense fallback={<BacktestPanelPlaceholder pickMarket description={EDITOR_DESCRIPTION} />}>
    <BacktestPanel
      pickMarket
      subject={{ symbol: '', category: 'spot', strategy, investment: null }}
      description={EDITOR_DESCRIPTION}
      renderExtra={(request) => (apply ? <SweepPanel request={request} onApply={apply} /> : null)}
    />
  </Suspense>
);

/** A saved strategy's backtest on a pair, market and leverage the user picks (My Strategies, Copy BOTs). */
export function StrategyBacktest({
  strategy,
  description,
  symbol = '',
  category = 'spot',
  leverage = null,
}: {
  strategy: unknown;
  description?: string;
  /** The pair offered first (the user may change it). */
  symbol?: string;
  category?: 'spot' | 'future';
  /** The futures leverage offered first. */
  leverage?: number | null;
}) {
  return (
    <Suspense fallback={<BacktestPanelPlaceholder pickMarket description={description} />}>
      <BacktestPanel
        pickMarket
        subject={{ symbol, category, leverage, strategy, investment: null }}
        description={description}
      />
    </Suspense>
  );
}
