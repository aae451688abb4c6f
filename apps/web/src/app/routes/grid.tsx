import { lazy, Suspense } from 'react';
import { PageHeader } from '../../components/ui/page-header';
import { GridList } from '../../features/grid/components/grid-list';
import { StartGridForm } from '../../features/grid/components/start-grid-form';
import { gridChart } from '../grid-chart';

// The backtest (engine, worker) loads only when a suggestion is shown.
const RangeSuggestionBacktest = lazy(
  () => import('../../features/backtest/components/range-suggestion-backtest'),
);
const RangeSweepPanel = lazy(() => import('../../features/backtest/components/range-sweep-panel'));

/** Start Grid (docs/trading-rules.md §2.6): the exchanges' Spot Grid and Futures Grid. */
export default function GridRoute() {
  return (
    <>
      <PageHeader
        title="Start Grid"
        description="Buy low and sell high inside a price range, with limit orders resting on every level."
      />
      <StartGridForm
        renderChart={gridChart}
        renderSuggestionBacktest={(subject, apply, carry) => (
          <Suspense fallback={<div className="h-16 animate-pulse rounded-lg bg-surface" />}>
            <RangeSuggestionBacktest {...subject} />
            <RangeSweepPanel {...subject} onApply={apply} carry={carry} />
          </Suspense>
        )}
        renderSweep={(subject, apply) => (
          <Suspense fallback={<div className="h-16 animate-pulse rounded-lg bg-surface" />}>
            <RangeSweepPanel {...subject} onApply={apply} />
          </Suspense>
        )}
      />
      <div className="mt-6">
        <GridList />
      </div>
    </>
  );
}
