import type { StoredStrategy, StrategyKind } from '@gridbot/shared';
import type { ReactNode } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { formatNumber } from '../../../lib/format';
import { depthPct, shortName } from '../utils/form-values';

interface StrategyCardProps {
  kind: StrategyKind;
  strategy: StoredStrategy;
  /** Start, Edit/Delete for own strategies; Start, View and Copy for system ones. */
  actions: ReactNode;
}

/** docs/spec/01-core-screens.md My Strategies card: name cut at 12 characters, Number of Grid, status badge, actions. */
export function StrategyCard({ kind, strategy, actions }: StrategyCardProps) {
  const active = strategy.status === 'active';
  const takeProfit =
    kind === 'scalping' && typeof strategy.takeprofit_percentage === 'number'
      ? `${formatNumber(strategy.takeprofit_percentage)}%`
      : null;
  return (
    <Card className="flex flex-col p-4" data-testid="strategy-card">
      <div className="flex items-start justify-between gap-2">
        <h3 className="min-w-0 truncate text-base font-semibold text-fg" title={strategy.strategy_name}>
          {shortName(strategy.strategy_name)}
        </h3>
        <div className="flex shrink-0 gap-1">
          {strategy.system ? <Badge tone="primary">System</Badge> : null}
          <Badge tone={active ? 'up' : 'down'}>{active ? 'Active' : 'Inactive'}</Badge>
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
        <div className="rounded-lg bg-surface-2 px-3 py-2">
          <dt className="text-xs text-muted">Number of Grid</dt>
          <dd className="font-mono font-semibold tabular-nums text-fg">{strategy.No_of_order}</dd>
        </div>
        <div className="rounded-lg bg-surface-2 px-3 py-2">
          <dt className="text-xs text-muted">{takeProfit ? 'Take Profit' : 'Reaches'}</dt>
          <dd className="font-mono font-semibold tabular-nums text-fg">
            {takeProfit ?? `−${formatNumber(depthPct(strategy))}%`}
          </dd>
        </div>
      </dl>
      <div className="mt-4 flex flex-wrap gap-2">{actions}</div>
    </Card>
  );
}
