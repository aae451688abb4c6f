import type { HistoryRow } from '@gridbot/shared';
import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { Skeleton } from '../../../components/ui/skeleton';
import { useNarrowBox } from '../../../components/ui/use-narrow-box';
import { formatPair, formatPrice, formatUsd } from '../../../lib/format';

const day = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: 'numeric' });
const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false });

/** Date over time, two short lines: twelve columns then fit beside the sidebar on a laptop. */
function DateTime({ value }: { value: string | null | undefined }) {
  if (!value) return <>—</>;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <>{value}</>;
  return (
    <>
      <span className="block">{day.format(date)}</span>
      <span className="block text-xs text-muted">{time.format(date)}</span>
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
  numeric?: boolean;
  /** May break over two lines (a strategy's name), so twelve columns fit beside the sidebar on a laptop. */
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
    cell: (r) => <span className="font-semibold text-fg">{formatPair(r.symbol)}</span>,
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
    sortValue: (r) => Number(r.profit),
  },
  {
    header: 'Loss Book',
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
    header: 'Closed price',
    cell: (r) => (r.stopAt === null || r.stopAt === undefined ? '—' : formatPrice(Number(r.stopAt))),
    numeric: true,
  },
  {
    header: 'Total Orders',
    cell: (r) => r.trades,
    botsOnly: true,
    numeric: true,
    sortValue: (r) => Number(r.trades),
  },
];

// Where the table is still wider than its box (tablets), the symbol stays in view while the other columns
// scroll sideways; the inset line marks the edge the others pass under.
const PAD = 'px-2 py-3 first:pl-4 last:pr-4 2xl:px-3';
const STICKY = 'sticky left-0 z-10 shadow-[inset_-1px_0_0_var(--color-line)]';
const STICKY_HEAD = `${STICKY} bg-surface-2`;
const STICKY_CELL = `${STICKY} bg-surface group-hover:bg-surface-2`;

/** The columns the History can be sorted by. */
export const SORTABLE_HEADERS = columns.filter((c) => c.sortValue).map((c) => c.header);

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
  cycle: boolean;
  emptyText: string;
}

/** The table's least width (its `min-w-[52rem]`); a narrower box shows the cards instead. */
const TABLE_MIN_PX = 832;

/**
 * docs/spec/01-core-screens.md History columns; Runtime and Total Orders are not shown for cycles. Below the mobile breakpoint, or
 * in a box narrower than the table (a tablet beside the sidebar), each row is a card with the same fields,
 * since twelve columns would only scroll sideways there.
 */
export function HistoryTable(props: HistoryTableProps) {
  const { ref, narrow } = useNarrowBox(TABLE_MIN_PX);
  const shown = columns.filter((c) => !(props.cycle && c.botsOnly));
  return (
    <div ref={ref}>
      {narrow ? <HistoryCards {...props} shown={shown} /> : <HistoryGrid {...props} shown={shown} />}
    </div>
  );
}

type ShownProps = HistoryTableProps & { shown: Column[] };

function HistoryGrid({ label, rows, loading, emptyText, shown, sort, onSort }: ShownProps) {
  return (
    <div className="@container overflow-x-auto rounded-xl border border-line bg-surface shadow-card">
      <table aria-label={label} className="w-full min-w-[52rem] text-[0.8125rem] 2xl:text-sm">
        <thead>
          <tr className="border-b border-line bg-surface-2 text-left text-[0.6875rem] font-semibold uppercase tracking-wide text-muted 2xl:text-xs">
            {shown.map((c) => (
              <th
                key={c.header}
                scope="col"
                // Headers of two or three words break over two lines rather than widen their columns.
                className={clsx(
                  PAD,
                  'align-bottom',
                  c.numeric && 'text-right',
                  c === shown[0] && STICKY_HEAD,
                )}
                aria-sort={
                  sort?.header === c.header ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined
                }
              >
                {c.sortValue && onSort ? (
                  <button
                    type="button"
                    onClick={() => onSort(c.header)}
                    className="inline-flex items-center gap-1 uppercase hover:text-fg"
                  >
                    {c.header}
                    <span aria-hidden="true">
                      {sort?.header === c.header ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}
                    </span>
                  </button>
                ) : (
                  c.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {loading
            ? Array.from({ length: 4 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder rows
                <tr key={i} className="border-b border-line/60">
                  {shown.map((c) => (
                    <td key={c.header} className={PAD}>
                      <Skeleton className="h-4 w-full" />
                    </td>
                  ))}
                </tr>
              ))
            : rows.map((row) => (
                <tr
                  key={row.id}
                  className="group border-b border-line/60 tabular-nums last:border-b-0 hover:bg-surface-2"
                >
                  {shown.map((c) => (
                    <td
                      key={c.header}
                      className={clsx(
                        PAD,
                        c.wrap ? 'min-w-20' : 'whitespace-nowrap',
                        c.numeric && 'text-right',
                        c.className?.(row) || 'text-fg',
                        c === shown[0] && STICKY_CELL,
                      )}
                    >
                      {c.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
        </tbody>
      </table>
      {!loading && rows.length === 0 ? (
        // Outside the table so it stays centred in the visible part of a scrolled table.
        <p className="sticky left-0 w-full max-w-[100cqw] px-4 py-12 text-center text-sm text-muted">
          {emptyText}
        </p>
      ) : null}
    </div>
  );
}

function HistoryCards({ label, rows, loading, emptyText, shown }: ShownProps) {
  const [symbol, strategy, ...fields] = shown;
  if (loading)
    return (
      <ul aria-label={label} aria-busy="true" className="grid gap-3">
        {Array.from({ length: 3 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder cards
          <li key={i} className="rounded-xl border border-line bg-surface p-4 shadow-card">
            <Skeleton className="h-5 w-1/3" />
            <Skeleton className="mt-3 h-16 w-full" />
          </li>
        ))}
      </ul>
    );
  if (rows.length === 0)
    return (
      <p className="rounded-xl border border-line bg-surface px-4 py-12 text-center text-sm text-muted shadow-card">
        {emptyText}
      </p>
    );
  return (
    <ul aria-label={label} className="grid gap-3">
      {rows.map((row) => (
        <li key={row.id} className="rounded-xl border border-line bg-surface p-4 shadow-card">
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
        </li>
      ))}
    </ul>
  );
}
