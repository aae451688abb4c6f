import { type HistoryRow, stopReasonText } from '@gridbot/shared';
import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { Badge } from '../../../components/ui/badge';
import { type DataColumn, DataTable } from '../../../components/ui/data-table';
import { formatDay, formatPair, formatPrice, formatTime, formatUsd } from '../../../lib/format';

/** Date over time, two short lines: fourteen columns then fit beside the sidebar on a laptop. */
function DateTime({ value }: { value: string | null | undefined }) {
  if (!value) return <>—</>;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <>{value}</>;
  return (
    <>
      <span className="block">{formatDay(date)}</span>
      <span className="block text-xs text-muted">{formatTime(date)}</span>
    </>
  );
}

function tone(value: number) {
  return value > 0 ? 'text-up' : value < 0 ? 'text-down' : '';
}

interface Column {
  header: string;
  cell: (row: HistoryRow) => ReactNode;
  className?: (row: HistoryRow) => string;
  /** Not shown on the Cycle tab. */
  botsOnly?: boolean;
  /** Shown on the Grid tab only (range grids), or everywhere but there. */
  gridOnly?: boolean;
  notGrid?: boolean;
  numeric?: boolean;
  /**
   * May break over two lines (a strategy's name, a reason), so fourteen columns fit beside the sidebar on a
   * laptop; wide enough that a reason such as "Stopped by its stoploss price" takes three lines, not five.
   */
  wrap?: boolean;
  /** What the column sorts by. */
  sortValue?: (row: HistoryRow) => number | string;
}

/** How the History is ordered: a column's header and the direction. */
export interface HistorySort {
  header: string;
  dir: 'asc' | 'desc';
}

const timeOf = (value: string | null | undefined) => (value ? Date.parse(value) || 0 : 0);

const columns: Column[] = [
  {
    header: 'Symbol',
    cell: (r) => (
      <>
        <span className="font-semibold text-fg">{formatPair(r.symbol)}</span>
        {/* Where the bot traded (ours): Binance, Bybit, OKX or Paper, from the member's key. A badge under the
            pair rather than a column of its own: the laptop's table has no room for a fifteenth column. */}
        {r.exchange ? (
          <span className="mt-1 block">
            <Badge title="Exchange" data-testid="history-exchange">
              {r.exchange}
            </Badge>
          </span>
        ) : null}
      </>
    ),
    sortValue: (r) => r.symbol,
  },
  { header: 'Strategy', cell: (r) => r.strategy_name || 'System Strategy', wrap: true },
  {
    header: 'Runtime',
    cell: (r) => `${Number(r.runtime).toFixed(2)} days`,
    botsOnly: true,
    numeric: true,
    sortValue: (r) => Number(r.runtime),
  },
  {
    header: 'Investment',
    cell: (r) => formatUsd(r.investment),
    numeric: true,
    sortValue: (r) => Number(r.investment),
  },
  {
    header: 'Profit Book',
    cell: (r) => formatUsd(r.profit),
    className: (r) => tone(Number(r.profit)),
    numeric: true,
    notGrid: true,
    sortValue: (r) => Number(r.profit),
  },
  {
    // A range grid's matched buy/sell pairs (docs/trading-rules.md §2.6).
    header: 'Grid Profit',
    cell: (r) => formatUsd(r.gridProfit ?? r.profit),
    className: (r) => tone(Number(r.gridProfit ?? r.profit)),
    numeric: true,
    gridOnly: true,
    sortValue: (r) => Number(r.gridProfit ?? r.profit),
  },
  {
    header: 'Loss Book',
    notGrid: true,
    cell: (r) => (r.lossbook === null || r.lossbook === undefined ? 'NA' : formatUsd(r.lossbook)),
    className: (r) => tone(Number(r.lossbook ?? 0)),
    numeric: true,
  },
  {
    header: 'Total PnL',
    cell: (r) => formatUsd(r.totalpnl),
    className: (r) => tone(Number(r.totalpnl)),
    numeric: true,
    sortValue: (r) => Number(r.totalpnl),
  },
  {
    header: 'ROI(%)',
    cell: (r) => `${Number(r.roi).toFixed(2)}%`,
    className: (r) => tone(Number(r.roi)),
    numeric: true,
    sortValue: (r) => Number(r.roi),
  },
  {
    header: 'Bot Started At',
    cell: (r) => <DateTime value={r.botstarttime} />,
    sortValue: (r) => timeOf(r.botstarttime),
  },
  {
    header: 'Bot Stopped At',
    cell: (r) => <DateTime value={r.botstoptime} />,
    sortValue: (r) => timeOf(r.botstoptime),
  },
  {
    header: 'Reason',
    cell: (r) => (r.stopReason ? stopReasonText(r.stopReason) : '—'),
    wrap: true,
  },
  {
    header: 'Closed price',
    // Stopped without a sale, a futures bot's position is still open: nothing was closed at any price.
    cell: (r) =>
      r.positionLeftOpen
        ? 'Position left open'
        : r.stopAt === null || r.stopAt === undefined
          ? '—'
          : formatPrice(Number(r.stopAt)),
    className: (r) => (r.positionLeftOpen ? 'text-warn' : ''),
    numeric: true,
  },
  {
    header: 'Matched Trades',
    cell: (r) => r.matchedTrades ?? 0,
    gridOnly: true,
    numeric: true,
    sortValue: (r) => Number(r.matchedTrades ?? 0),
  },
  {
    header: 'Total Orders',
    cell: (r) => r.trades,
    botsOnly: true,
    numeric: true,
    sortValue: (r) => Number(r.trades),
  },
];

/** What a History tab lists: grid bots (Multigrid, Scalping), cycles, or range grids. */
export type HistoryKind = 'bots' | 'cycle' | 'grid';

function columnsOf(kind: HistoryKind): Column[] {
  return columns.filter(
    (c) =>
      !(kind === 'cycle' && c.botsOnly) &&
      !(kind === 'grid' && c.notGrid) &&
      !(kind !== 'grid' && c.gridOnly),
  );
}

/** The columns a tab's History can be sorted by. */
export function sortableHeaders(kind: HistoryKind): string[] {
  return columnsOf(kind)
    .filter((c) => c.sortValue)
    .map((c) => c.header);
}

/** The rows in the asked order (a stable sort: equal values keep the server's newest-first order). */
export function sortHistory(rows: readonly HistoryRow[], sort: HistorySort | null): HistoryRow[] {
  const column = sort ? columns.find((c) => c.header === sort.header) : undefined;
  if (!sort || !column?.sortValue) return [...rows];
  const value = column.sortValue;
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    return (
      sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)))
    );
  });
}

interface HistoryTableProps {
  label: string;
  sort?: HistorySort | null;
  onSort?: (header: string) => void;
  rows: HistoryRow[];
  loading: boolean;
  kind: HistoryKind;
  emptyText: string;
}

/** Narrower than this (px) fourteen columns would only scroll sideways: the rows show as cards instead. */
const TABLE_MIN_PX = 832;

function dataColumn(c: Column): DataColumn<HistoryRow> {
  return {
    key: c.header,
    header: c.header,
    cell: (row) => c.cell(row),
    align: c.numeric ? 'right' : 'left',
    className: clsx('tabular-nums', c.wrap && 'min-w-24 whitespace-normal'),
    cellClassName: c.className,
    sortable: c.sortValue !== undefined,
  };
}

/**
 * docs/spec/01-core-screens.md History columns; Runtime and Total Orders are not shown for cycles; range grids
 * show their grid profit and matched trades instead of the Profit and Loss Books. Below the mobile breakpoint, or
 * in a box narrower than the table (a tablet beside the sidebar), each row is a card with the same fields,
 * since fourteen columns would only scroll sideways there; where the table is still wider than its box, the
 * symbol stays in view.
 */
export function HistoryTable({ label, rows, loading, kind, emptyText, sort, onSort }: HistoryTableProps) {
  const shown = columnsOf(kind);
  return (
    <DataTable
      caption={label}
      columns={shown.map(dataColumn)}
      rows={rows}
      rowKey={(row) => row.id}
      loading={loading}
      emptyText={emptyText}
      cardsBelowPx={TABLE_MIN_PX}
      stickyFirstColumn
      wrapHeaders
      dense
      sort={sort ? { key: sort.header, dir: sort.dir } : null}
      onSort={onSort}
      renderCard={(row) => <HistoryCard row={row} shown={shown} />}
      className="rounded-xl border border-line bg-surface shadow-card"
    />
  );
}

/** Symbol and strategy head the card; every other column is a labelled field. */
function HistoryCard({ row, shown }: { row: HistoryRow; shown: Column[] }) {
  const [symbol, strategy, ...fields] = shown;
  return (
    <div className="p-4">
      <p className="font-semibold text-fg">{symbol?.cell(row)}</p>
      <p className="text-xs text-muted">{strategy?.cell(row)}</p>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm tabular-nums">
        {fields.map((c) => (
          <div key={c.header} className="min-w-0">
            <dt className="text-xs text-muted">{c.header}</dt>
            <dd className={clsx('break-words', c.className?.(row) || 'text-fg')}>{c.cell(row)}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
