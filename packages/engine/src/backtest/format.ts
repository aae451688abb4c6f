import { utcIso } from '../core/utc-date';
import type { BacktestSummary, FillRecord } from './run-backtest';

const COLUMNS = ['time', 'side', 'grid', 'price', 'qty', 'quote', 'fee', 'pnl'] as const;

const fixed = (v: number, digits: number) =>
  Number.isInteger(v) && digits === 0 ? String(v) : v.toFixed(digits);

function row(f: FillRecord): string[] {
  return [
    utcIso(f.time).replace('.000Z', 'Z'),
    f.side,
    String(f.grid),
    String(f.price),
    String(f.qty),
    fixed(f.quote, 4),
    fixed(f.fee, 6),
    fixed(f.pnl, 4),
  ];
}

/** The human-readable backtest report: one row per fill, then the summary. */
export function formatBacktestTable(fills: readonly FillRecord[], summary: BacktestSummary): string {
  const rows = [Array.from(COLUMNS), ...fills.map(row)];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const lines = rows.map((r) =>
    r.map((cell, i) => (i < 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  '),
  );
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  const s = summary;
  lines.push(
    '',
    `booked profit     ${s.bookedProfit.toFixed(4)} USDT`,
    `fees              ${s.fees.toFixed(4)} USDT`,
    `trades            ${s.trades}`,
    `open grids        ${s.openGrids}`,
    `unrealized PnL    ${s.unrealizedPnl.toFixed(4)} USDT`,
    `total PnL         ${s.totalPnl.toFixed(4)} USDT`,
    `max drawdown      ${s.maxDrawdownPct.toFixed(2)} %`,
  );
  return `${lines.join('\n')}\n`;
}
