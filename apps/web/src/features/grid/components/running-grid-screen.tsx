import type { GridBotInfo, GridFillView, GridOrderView } from '@gridbot/shared';
import { clsx } from 'clsx';
import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { type DataColumn, DataTable } from '../../../components/ui/data-table';
import { EmptyState } from '../../../components/ui/empty-state';
import { ExchangeName } from '../../../components/ui/exchange-name';
import { AlertIcon, ArrowLeftIcon } from '../../../components/ui/icons';
import { Skeleton } from '../../../components/ui/skeleton';
import { isApiError } from '../../../lib/api-client';
import {
  formatDateTime,
  formatPair,
  formatPct,
  formatPrice,
  formatQty,
  formatSignedUsd,
  formatUsd,
} from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { useGridFills, useGridInfo, useStopGrid } from '../api/grid-api';
import { type RenderGridChart, runningGridLevels } from '../lib/grid-chart';
import { gridErrorMessage } from '../lib/grid-errors';
import { GridEditDialog } from './grid-edit-dialog';
import { GridStopDialog } from './grid-stop-dialog';

const STOP_REASONS: Record<string, string> = {
  stoploss: 'Stopped by its stop-loss.',
  take_profit: 'Stopped by its take-profit.',
  liquidated: 'The exchange liquidated the position.',
  manual: 'Stopped by you.',
  manual_sell: 'Stopped by you, with the coin sold.',
};

function Loading() {
  return (
    <div className="space-y-6" aria-busy="true">
      <span role="status" className="sr-only">
        Loading grid
      </span>
      <Skeleton className="h-20 w-full rounded-xl" />
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {Array.from({ length: 8 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
          <Skeleton key={i} className="h-20 rounded-xl" />
        ))}
      </div>
      <Skeleton className="h-72 w-full rounded-xl" />
    </div>
  );
}

/** A running range grid (docs/trading-rules.md §2.6): refreshed every 10 s like every bot page. */
export function RunningGridScreen({ id, renderChart }: { id: string; renderChart?: RenderGridChart }) {
  const info = useGridInfo(id);
  const fills = useGridFills(id, info.data !== undefined);
  if (info.isPending) return <Loading />;
  if (!info.data) {
    const missing = isApiError(info.error) && info.error.status === 404;
    return (
      <EmptyState
        icon={<AlertIcon />}
        title={missing ? 'Grid not found' : 'Could not load this grid'}
        description={
          missing
            ? 'This grid does not exist or belongs to another account.'
            : gridErrorMessage(info.error, 'Check your connection and try again.')
        }
        action={
          missing ? (
            <Link to="/dashboard" className={buttonClasses('primary')}>
              Go to Dashboard
            </Link>
          ) : (
            <Button onClick={() => void info.refetch()}>Retry</Button>
          )
        }
      />
    );
  }
  return (
    <GridPage
      bot={info.data}
      fills={fills.data}
      fillsLoading={fills.isPending}
      fillsError={fills.isError ? gridErrorMessage(fills.error, 'Could not load the fills.') : null}
      onRetryFills={() => void fills.refetch()}
      renderChart={renderChart}
    />
  );
}

function GridPage({
  bot,
  fills,
  fillsLoading,
  fillsError,
  onRetryFills,
  renderChart,
}: {
  bot: GridBotInfo;
  fills: GridFillView[] | undefined;
  fillsLoading: boolean;
  fillsError: string | null;
  onRetryFills: () => void;
  renderChart: RenderGridChart | undefined;
}) {
  const [dialog, setDialog] = useState<'stop' | 'edit' | null>(null);
  const [stopping, setStopping] = useState<'sell' | 'stop' | null>(null);
  const stop = useStopGrid(bot.id);
  const running = bot.status === 'Live' || bot.status === 'Waiting';
  const future = bot.category === 'Future';
  const levels = useMemo(() => runningGridLevels(bot), [bot]);
  const base = bot.symbol.replace(/USDT$/, '');

  const onStop = (sell: boolean) => {
    setStopping(sell ? 'sell' : 'stop');
    stop.mutate(
      { sell },
      {
        onSuccess: (answer) => {
          setDialog(null);
          toast.success(answer.message);
        },
        onError: (error) =>
          toast.error(gridErrorMessage(error, 'Could not stop the grid. Please try again.')),
        onSettled: () => setStopping(null),
      },
    );
  };

  return (
    <div className="space-y-5">
      <Link
        to="/dashboard"
        className="inline-flex items-center gap-1.5 text-sm font-medium text-muted hover:text-fg"
      >
        <ArrowLeftIcon className="size-4" /> Dashboard
      </Link>
      <Card className="flex flex-wrap items-center justify-between gap-3 p-4 sm:p-5">
        <div className="min-w-0 space-y-1">
          <h1 className="flex flex-wrap items-center gap-2 text-xl font-bold text-fg">
            {formatPair(bot.symbol)}
            <Badge tone="primary">{bot.category === 'Future' ? 'Futures grid' : 'Spot grid'}</Badge>
            <Badge tone={bot.status === 'Live' ? 'up' : bot.status === 'Stopped' ? 'neutral' : 'warn'}>
              {bot.status}
            </Badge>
            {bot.outOfRange && bot.status === 'Live' ? (
              <Badge tone="warn" data-testid="out-of-range">
                Out of range
              </Badge>
            ) : null}
          </h1>
          <p className="text-sm text-muted">
            {formatPrice(bot.levels[0] ?? 0)}–{formatPrice(bot.levels[bot.levels.length - 1] ?? 0)},{' '}
            {bot.strategy.grids} grids {bot.strategy.mode}
            {future ? `, ${bot.strategy.direction} ${bot.strategy.leverage}x` : ''} · started{' '}
            {formatDateTime(bot.startedAt)}
            {bot.exchange ? (
              // Where the grid trades (ours), as on the bot pages: the member's key's exchange, or Paper. One
              // piece that wraps whole on a phone, the name never apart from its label.
              <>
                {' · '}
                <ExchangeName name={bot.exchange} testId="grid-exchange" className="whitespace-nowrap" />
              </>
            ) : null}
          </p>
        </div>
        {running ? (
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => setDialog('edit')}>
              Edit stops
            </Button>
            <Button variant="danger" onClick={() => setDialog('stop')}>
              Stop
            </Button>
          </div>
        ) : null}
      </Card>
      {bot.haltReason && bot.status !== 'Stopped' ? (
        <div role="alert" className="rounded-xl border border-down/40 bg-down/10 p-4 text-sm text-fg">
          Halted: {bot.haltReason}
        </div>
      ) : null}
      {bot.outOfRange && bot.status === 'Live' ? (
        <p role="status" className="rounded-xl border border-warn/40 bg-warn/10 p-4 text-sm text-fg">
          The price {formatPrice(bot.lastPrice)} is outside the grid: no order can fill until it comes back.
        </p>
      ) : null}
      {bot.status === 'Waiting' ? (
        <p role="status" className="rounded-xl border border-line bg-surface-2 p-4 text-sm text-muted">
          Waiting for the price to cross the trigger at {formatPrice(bot.strategy.trigger ?? 0)}.
        </p>
      ) : null}
      {bot.status === 'Stopping' ? (
        <p role="status" className="rounded-xl border border-warn/40 bg-warn/10 p-4 text-sm text-fg">
          This grid is stopping: its closing order is under way.
        </p>
      ) : null}
      {bot.status === 'Stopped' ? (
        <p className="rounded-xl border border-line bg-surface-2 p-4 text-sm text-muted">
          {(bot.stopReason && STOP_REASONS[bot.stopReason]) ?? 'This grid has stopped.'} It takes no new
          trades.
        </p>
      ) : null}

      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Grid figures">
        <Figure label="Grid profit" tone={bot.gridProfit}>
          {formatSignedUsd(bot.gridProfit)}
        </Figure>
        <Figure label="Floating PnL" tone={bot.floatingPnl}>
          {formatSignedUsd(bot.floatingPnl)}
        </Figure>
        <Figure label="Total PnL" tone={bot.totalPnl}>
          {formatSignedUsd(bot.totalPnl)}
        </Figure>
        <Figure label="Grid APR">{formatPct(bot.gridApr)}</Figure>
        <Figure label="Matched trades">{bot.matchedTrades}</Figure>
        <Figure label="Investment">{formatUsd(bot.investment)}</Figure>
        <Figure label="Quantity per order">
          {formatQty(bot.qtyPerOrder)} {base}
        </Figure>
        <Figure label="Price">{formatPrice(bot.lastPrice)}</Figure>
        {bot.position ? (
          <>
            <Figure label="Position">
              {formatQty(bot.position.size)} {base}
            </Figure>
            <Figure label="Entry price">{formatPrice(bot.position.entryPrice)}</Figure>
            <Figure label="Margin">{formatUsd(bot.position.margin)}</Figure>
            <Figure label="Liquidation price">{formatPrice(bot.position.liquidationPrice)}</Figure>
            <Figure label="Funding" tone={bot.position.funding}>
              {formatSignedUsd(bot.position.funding)}
            </Figure>
          </>
        ) : (
          <>
            <Figure label={`${base} held`}>{formatQty(bot.base)}</Figure>
            <Figure label="USDT held">{formatUsd(bot.quote)}</Figure>
          </>
        )}
      </dl>

      <Card>
        <CardHeader title="Price Chart" description={`${bot.symbol} with the grid's resting orders.`} />
        {renderChart?.({
          symbol: bot.symbol,
          category: future ? 'future' : 'spot',
          levels,
          livePrice: bot.lastPrice,
        })}
        <p className="flex flex-wrap gap-x-4 gap-y-1 border-t border-line px-4 py-3 text-xs text-muted">
          <span>
            <span aria-hidden="true" className="mr-1.5 inline-block h-0.5 w-3 rounded bg-up align-middle" />
            Buy orders
          </span>
          <span>
            <span aria-hidden="true" className="mr-1.5 inline-block h-0.5 w-3 rounded bg-down align-middle" />
            Sell orders
          </span>
        </p>
      </Card>

      <Card>
        <CardHeader
          title="Open orders"
          description="The limit orders resting on the book, lowest level first."
        />
        <DataTable
          caption="Open orders"
          columns={ORDER_COLUMNS}
          rows={bot.orders}
          rowKey={(o) => o.clientOrderId}
          loading={false}
          emptyText={running ? 'No order is resting.' : 'The grid has no open orders.'}
          tableOnPhone
        />
      </Card>
      <Card>
        <CardHeader title="Fills" description="Every fill of this grid, newest first." />
        <DataTable
          caption="Fills"
          columns={FILL_COLUMNS}
          rows={fills}
          rowKey={(f) => `${f.time}-${f.side}-${f.level}-${f.price}-${f.qty}`}
          loading={fillsLoading}
          error={fillsError}
          onRetry={onRetryFills}
          emptyText="No fill yet."
        />
      </Card>

      <GridStopDialog
        open={dialog === 'stop'}
        onClose={() => setDialog(null)}
        symbol={bot.symbol}
        future={future}
        pending={stopping}
        onStop={onStop}
      />
      {/* Mounted on opening: the fields start from the grid's values at that moment. */}
      {dialog === 'edit' ? <GridEditDialog open onClose={() => setDialog(null)} bot={bot} /> : null}
    </div>
  );
}

function Figure({ label, tone, children }: { label: string; tone?: number; children: ReactNode }) {
  return (
    <div className="rounded-xl border border-line bg-surface p-3 sm:p-4">
      <dt className="text-xs text-muted">{label}</dt>
      <dd
        className={clsx(
          'mt-1 truncate text-base font-bold tabular-nums sm:text-lg',
          tone === undefined || tone === 0 ? 'text-fg' : tone > 0 ? 'text-up' : 'text-down',
        )}
      >
        {children}
      </dd>
    </div>
  );
}

const sideCell = (side: 'buy' | 'sell') => (
  // Green and red as the running bot's Order Book colours BUY and SELL (docs/spec/02-bots-wallet-account.md).
  <span className={clsx('font-semibold', side === 'buy' ? 'text-up' : 'text-down')}>
    {side === 'buy' ? 'Buy' : 'Sell'}
  </span>
);

const ORDER_COLUMNS: DataColumn<GridOrderView>[] = [
  { key: 'side', header: 'Side', cell: (o) => sideCell(o.side) },
  { key: 'level', header: 'Level', cell: (o) => o.level, align: 'right', className: 'tabular-nums' },
  {
    key: 'price',
    header: 'Price',
    cell: (o) => formatPrice(o.price),
    align: 'right',
    className: 'tabular-nums',
  },
  {
    key: 'qty',
    header: 'Quantity',
    cell: (o) => formatQty(o.qty),
    align: 'right',
    className: 'tabular-nums',
  },
];

const FILL_COLUMNS: DataColumn<GridFillView>[] = [
  { key: 'time', header: 'Time', cell: (f) => formatDateTime(f.time) },
  { key: 'side', header: 'Side', cell: (f) => sideCell(f.side) },
  {
    key: 'level',
    header: 'Level',
    cell: (f) => (f.level === null ? 'Market' : f.level),
    align: 'right',
    className: 'tabular-nums',
  },
  {
    key: 'price',
    header: 'Price',
    cell: (f) => formatPrice(f.price),
    align: 'right',
    className: 'tabular-nums',
  },
  {
    key: 'qty',
    header: 'Quantity',
    cell: (f) => formatQty(f.qty),
    align: 'right',
    className: 'tabular-nums',
  },
  {
    key: 'quote',
    header: 'USDT',
    cell: (f) => formatUsd(f.quote),
    align: 'right',
    className: 'tabular-nums',
  },
  {
    key: 'fee',
    header: 'Fee',
    cell: (f) => `${formatQty(f.fee)} ${f.feeAsset}`,
    align: 'right',
    className: 'tabular-nums',
  },
  {
    key: 'pnl',
    header: 'Grid profit',
    cell: (f) => (f.pnl === null ? '—' : formatSignedUsd(f.pnl)),
    cellClassName: (f) => (f.pnl === null || f.pnl === 0 ? undefined : f.pnl > 0 ? 'text-up' : 'text-down'),
    align: 'right',
    className: 'tabular-nums',
  },
];
