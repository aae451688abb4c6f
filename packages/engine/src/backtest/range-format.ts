/**
 * The range grid's backtest report as text (docs/trading-rules.md §2.6): one row per fill with its level
 * (`market` for the start, trailing and stop orders, empty for a futures funding payment), then the
 * summary of §2.5 with the grid profit, floating PnL and matched trades (and futures funding).
 */
import { utcIso } from '../core/utc-date';
import type { RangeBacktestSummary, RangeFillRecord } from './range-backtest';

const COLUMNS = ['time', 'side', 'level', 'price', 'qty', 'quote', 'fee', 'pnl'] as const;
const iso = (ms: number) => utcIso(ms).replace('.000Z', 'Z');
const usdt = (v: number) => `${v.toFixed(4)} USDT`;
const pct = (v: number) => `${v.toFixed(2)} %`;

function row(f: RangeFillRecord): string[] {
  return [
    iso(f.time),
    f.side,
    f.side === 'FUNDING' ? '' : f.level === null ? 'market' : String(f.level),
    String(f.price),
    String(f.qty),
    f.quote.toFixed(4),
    f.fee.toFixed(6),
    f.pnl.toFixed(4),
  ];
}

export function rangeSummaryLines(s: RangeBacktestSummary): string[] {
  const days = (s.endMs - s.startMs) / 86_400_000;
  const pairs: [string, string][] = [
    ['period', `${iso(s.startMs)} → ${iso(s.endMs)} (${days.toFixed(1)} days)`],
    ['investment', usdt(s.investment)],
    ['grid profit', usdt(s.gridProfit)],
    ['floating PnL', usdt(s.floatingPnl)],
    ['total PnL', usdt(s.totalPnl)],
    ['ROI', pct(s.roiPct)],
    ['APR', pct(s.aprPct)],
    ['grid APR', pct(s.gridAprPct)],
    ['fees', usdt(s.fees)],
    ...(s.funding !== 0 ? [['funding', usdt(s.funding)] as [string, string]] : []),
    ['trades', String(s.trades)],
    ['matched trades', String(s.matchedTrades)],
    ['open orders', String(s.openGrids)],
    ['max drawdown', pct(s.maxDrawdownPct)],
    ['time in market', pct(s.timeInMarketPct)],
    ['buy and hold', pct(s.buyAndHoldPct)],
    ['stop reason', s.stopReason ?? 'none (ran to the end)'],
  ];
  const width = Math.max(...pairs.map(([k]) => k.length)) + 2;
  return pairs.map(([k, v]) => `${k.padEnd(width)}${v}`);
}

export function formatRangeTable(fills: readonly RangeFillRecord[], summary: RangeBacktestSummary): string {
  const rows = [Array.from(COLUMNS), ...fills.map(row)];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const lines = rows.map((r) =>
    r.map((cell, i) => (i < 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  '),
  );
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  lines.push('', ...rangeSummaryLines(summary));
  return `${lines.join('\n')}\n`;
}
