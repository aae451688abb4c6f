import type { GridBotView } from '@gridbot/shared';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Figure, signTone } from '../../../components/ui/figure';
import { formatPair, formatPrice, formatSignedUsd, formatUsd } from '../../../lib/format';

/** "Spot grid" or "Futures grid": the name the grid pages give a range grid (docs/trading-rules.md §2.6). */
export const gridKindOf = (grid: Pick<GridBotView, 'category'>) =>
  grid.category === 'Future' ? 'Futures grid' : 'Spot grid';

/**
 * A running range grid among the dashboard's live bots: pair, category, investment, grid profit and total PnL,
 * its status ("out of range" when no order can fill); the whole card opens the grid's page.
 */
export function RangeGridCard({ grid }: { grid: GridBotView }) {
  const lower = grid.levels[0] ?? grid.strategy.lower;
  const upper = grid.levels.at(-1) ?? grid.strategy.upper;
  const state = grid.haltReason ? 'paused by the system' : grid.outOfRange ? 'out of range' : null;
  return (
    <article className="group relative rounded-xl border border-line bg-surface p-4 shadow-card transition-[border-color,transform] duration-150 hover:-translate-y-0.5 hover:border-primary/50 has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-ring">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="truncate text-base font-bold text-fg">
            <Link
              to={`/grid-bot/${encodeURIComponent(grid.id)}`}
              aria-label={`${formatPair(grid.symbol)} ${gridKindOf(grid)}, ${grid.status}${state ? `, ${state}` : ''}`}
              className="outline-none after:absolute after:inset-0 after:rounded-xl"
            >
              {formatPair(grid.symbol)}
            </Link>
          </p>
          <p className="mt-0.5 flex flex-wrap items-center gap-1.5 text-xs text-muted">
            <Badge tone="primary">{grid.category}</Badge>
            <Badge tone="neutral">Grid</Badge>
            <span className="truncate tabular-nums">
              {formatPrice(lower)}–{formatPrice(upper)} · {grid.strategy.grids} grids
            </span>
          </p>
        </div>
        <div className="shrink-0 text-right">
          <Badge tone={grid.status === 'Live' && !state ? 'up' : 'warn'} className="normal-case">
            {grid.status}
          </Badge>
          <p className="mt-1 text-sm font-semibold text-fg tabular-nums">{formatPrice(grid.lastPrice)}</p>
        </div>
      </div>
      {state ? (
        <p
          data-testid="grid-state"
          className="mt-2 line-clamp-2 rounded-md bg-warn/10 px-2 py-1 text-xs text-fg"
        >
          {grid.haltReason
            ? `Paused by the system: ${grid.haltReason}`
            : `Out of range: the price ${formatPrice(grid.lastPrice)} is outside ${formatPrice(lower)}–${formatPrice(upper)}, so no order fills until it returns.`}
        </p>
      ) : null}
      <dl className="mt-3 grid grid-cols-3 gap-x-3 gap-y-2.5">
        <Figure label="Investment" value={formatUsd(grid.investment)} />
        <Figure
          label="Grid Profit"
          value={formatSignedUsd(grid.gridProfit)}
          tone={signTone(grid.gridProfit)}
        />
        <Figure label="Total PnL" value={formatSignedUsd(grid.totalPnl)} tone={signTone(grid.totalPnl)} />
        <Figure label="Matched Trades" value={grid.matchedTrades} />
        <Figure label="Open Orders" value={grid.orders.length} />
        <Figure
          label="Grid APR"
          value={`${grid.gridApr > 0 ? '+' : ''}${grid.gridApr.toFixed(2)}%`}
          tone={signTone(grid.gridApr)}
        />
      </dl>
    </article>
  );
}
