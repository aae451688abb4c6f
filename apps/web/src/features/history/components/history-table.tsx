import type { HistoryRow } from '@gridbot/shared';
import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatPair, formatPrice, formatUsd } from '../../../lib/format';

const dateTime = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTime.format(date);
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
}

const columns: Column[] = [
  { header: 'Symbol', cell: (r) => <span className="font-semibold text-fg">{formatPair(r.symbol)}</span> },
  { header: 'Strategy', cell: (r) => r.strategy_name || 'System Strategy' },
  { header: 'Runtime', cell: (r) => `${Number(r.runtime).toFixed(2)} days`, botsOnly: true, numeric: true },
  { header: 'Investment', cell: (r) => formatUsd(r.investment), numeric: true },
  {
    header: 'Profit Book',
    cell: (r) => formatUsd(r.profit),
    className: (r) => tone(Number(r.profit)),
    numeric: true,
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
  },
  {
    header: 'ROI(%)',
    cell: (r) => `${Number(r.roi).toFixed(2)}%`,
    className: (r) => tone(Number(r.roi)),
    numeric: true,
  },
  { header: 'Bot Started At', cell: (r) => formatDate(r.botstarttime) },
  { header: 'Bot Stopped At', cell: (r) => formatDate(r.botstoptime) },
  {
    header: 'Closed price',
    cell: (r) => (r.stopAt === null || r.stopAt === undefined ? '—' : formatPrice(Number(r.stopAt))),
    numeric: true,
  },
  { header: 'Total Orders', cell: (r) => r.trades, botsOnly: true, numeric: true },
];

interface HistoryTableProps {
  label: string;
  rows: HistoryRow[];
  loading: boolean;
  cycle: boolean;
  emptyText: string;
}

/** Spec 01 History columns; Runtime and Total Orders are not shown for cycles. */
export function HistoryTable({ label, rows, loading, cycle, emptyText }: HistoryTableProps) {
  const shown = columns.filter((c) => !(cycle && c.botsOnly));
  return (
    <div className="@container overflow-x-auto rounded-xl border border-line bg-surface shadow-card">
      <table aria-label={label} className="w-full min-w-[64rem] text-sm">
        <thead>
          <tr className="border-b border-line bg-surface-2/60 text-left text-xs font-semibold uppercase tracking-wide text-muted">
            {shown.map((c) => (
              <th
                key={c.header}
                scope="col"
                className={clsx('px-4 py-3 whitespace-nowrap', c.numeric && 'text-right')}
              >
                {c.header}
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
                    <td key={c.header} className="px-4 py-3">
                      <Skeleton className="h-4 w-full" />
                    </td>
                  ))}
                </tr>
              ))
            : rows.map((row) => (
                <tr
                  key={row.id}
                  className="border-b border-line/60 tabular-nums last:border-b-0 hover:bg-surface-2/50"
                >
                  {shown.map((c) => (
                    <td
                      key={c.header}
                      className={clsx(
                        'px-4 py-3 whitespace-nowrap',
                        c.numeric && 'text-right',
                        c.className?.(row) || 'text-fg',
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
