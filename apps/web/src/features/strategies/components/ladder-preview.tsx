import { buildLadder, type StrategyKind } from '@gridbot/shared';
import { clsx } from 'clsx';
import { useMemo } from 'react';
import { type Control, useWatch } from 'react-hook-form';
import { Card } from '../../../components/ui/card';
import { formatNumber } from '../../../lib/format';
import type { StrategyFormValues } from '../utils/form-values';
import { LadderChart } from './ladder-chart';

function Stat({ label, value, tone }: { label: string; value: string; tone?: 'warn' | 'up' }) {
  return (
    <div className="min-w-0 rounded-lg bg-surface-2 px-2.5 py-2">
      <dt className="truncate text-[0.6875rem] font-medium uppercase tracking-wide text-muted">{label}</dt>
      <dd
        className={clsx(
          'mt-0.5 truncate font-mono text-sm font-semibold tabular-nums',
          tone === 'warn' ? 'text-warn' : tone === 'up' ? 'text-up' : 'text-fg',
        )}
      >
        {value}
      </dd>
    </div>
  );
}

function Legend({ kind }: { kind: StrategyKind }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
      <li className="flex items-center gap-1.5">
        <span aria-hidden="true" className="size-2 rounded-full bg-primary" />
        Buy level
      </li>
      <li className="flex items-center gap-1.5">
        <span aria-hidden="true" className="h-0.5 w-3 bg-up" />
        {kind === 'scalping' ? 'Sell-all level (avg. entry + TP)' : 'Take-profit'}
      </li>
      <li className="flex items-center gap-1.5">
        <span aria-hidden="true" className="h-2.5 w-2 rounded-[2px] bg-primary/45" />
        Allocation
      </li>
    </ul>
  );
}

interface LadderPreviewProps {
  control: Control<StrategyFormValues>;
  kind: StrategyKind;
  className?: string;
}

/**
 * Ladder preview: for a start price of 100, where each grid buys, how much it uses and where its
 * take-profit sits; recomputed from the form on every keystroke (only this card re-renders).
 */
export function LadderPreview({ control, kind, className }: LadderPreviewProps) {
  const [rows, takeProfit] = useWatch({ control, name: ['tableData', 'takeProfitPercentage'] });
  const ladder = useMemo(
    () =>
      buildLadder({
        kind,
        takeProfit,
        rows: (rows ?? []).map((row) => ({
          allotted: row.allottedAmountPercentagePerOrder,
          buy: row.buyPercentage,
          takeProfit: row.takeProfitPercentage,
        })),
      }),
    [kind, rows, takeProfit],
  );
  const allotted = ladder.totalAllottedPct;
  const full = Math.abs(allotted - 100) <= 0.01;

  return (
    <Card className={clsx('p-4', className)} aria-labelledby="ladder-preview-title">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id="ladder-preview-title" className="text-sm font-semibold text-fg">
          Ladder preview
        </h2>
        <span className="text-xs text-muted">start price 100</span>
      </div>
      {ladder.levels.length === 0 ? (
        <p className="mt-3 rounded-lg border border-dashed border-line px-3 py-8 text-center text-sm text-muted">
          Enter the number of grids to see where each one buys.
        </p>
      ) : (
        <>
          <dl className="mt-3 grid grid-cols-3 gap-2" data-testid="ladder-stats">
            <Stat label="Depth" value={`−${formatNumber(ladder.deepestDropPct)}%`} />
            <Stat label="Lowest buy" value={formatNumber(ladder.deepestPrice)} />
            <Stat label="Allotted" value={`${formatNumber(allotted)}%`} tone={full ? 'up' : 'warn'} />
          </dl>
          <div className="mt-3">
            <LadderChart ladder={ladder} kind={kind} />
          </div>
          <Legend kind={kind} />
        </>
      )}
    </Card>
  );
}
