import { utcIso } from '../core/utc-date';
import type { BacktestReport } from './report';
import type { FillRecord } from './run-backtest';

const COLUMNS = ['time', 'side', 'grid', 'price', 'qty', 'quote', 'fee', 'pnl'] as const;

const fixed = (v: number, digits: number) =>
  Number.isInteger(v) && digits === 0 ? String(v) : v.toFixed(digits);

const iso = (ms: number) => utcIso(ms).replace('.000Z', 'Z');

function row(f: FillRecord): string[] {
  return [
    iso(f.time),
    f.side,
    f.side === 'FUNDING' ? '' : String(f.grid),
    String(f.price),
    String(f.qty),
    fixed(f.quote, 4),
    fixed(f.fee, 6),
    fixed(f.pnl, 4),
  ];
}

const usdt = (v: number) => `${v.toFixed(4)} USDT`;
const pct = (v: number) => `${v.toFixed(2)} %`;
const ratio = (v: number | null) => (v === null ? '-' : v.toFixed(2));

/** The summary as label/value lines (the plain output's second table). */
export function summaryLines(s: BacktestReport): string[] {
  const days = (s.endMs - s.startMs) / 86_400_000;
  const pairs: [string, string][] = [
    ['period', `${iso(s.startMs)} → ${iso(s.endMs)} (${days.toFixed(1)} days)`],
    ['investment', usdt(s.investment)],
    ['booked profit', usdt(s.bookedProfit)],
    ['unrealized PnL', usdt(s.unrealizedPnl)],
    ['total PnL', usdt(s.totalPnl)],
    ['ROI', pct(s.roiPct)],
    ['APR', pct(s.aprPct)],
    ['fees', usdt(s.fees)],
    ['funding', usdt(s.funding)],
    ['trades', String(s.trades)],
    ['open grids', String(s.openGrids)],
    ['max drawdown', pct(s.maxDrawdownPct)],
    ['Sharpe (daily)', ratio(s.sharpe)],
    ['Sortino (daily)', ratio(s.sortino)],
    ['time in market', pct(s.timeInMarketPct)],
    ['buy and hold', pct(s.buyAndHoldPct)],
    ['stop reason', s.stopReason ?? 'none (ran to the end)'],
    ['skipped buys', String(s.skippedBuys)],
  ];
  const width = Math.max(...pairs.map(([k]) => k.length)) + 2;
  return pairs.map(([k, v]) => `${k.padEnd(width)}${v}`);
}

/** The human-readable backtest report: one row per fill, then the summary. */
export function formatBacktestTable(fills: readonly FillRecord[], summary: BacktestReport): string {
  const rows = [Array.from(COLUMNS), ...fills.map(row)];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const lines = rows.map((r) =>
    r.map((cell, i) => (i < 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  '),
  );
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  lines.push('', ...summaryLines(summary));
  return `${lines.join('\n')}\n`;
}
