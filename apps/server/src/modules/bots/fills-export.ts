import { money, VENUE_NAMES, type Venue } from '@gridbot/shared';

/**
 * One row per fill, the columns a tax report needs. `fee` is what the exchange charged, in `fee_asset`: a spot
 * buy may pay it in the bought coin, or in BNB (docs/trading-rules.md §2.1), and a report that read such a fee
 * as USDT would be wrong. `exchange` names where the bot trades (VENUE_NAMES: the user's key's exchange, or Paper).
 */
export const FILLS_CSV_HEADER = [
  'date',
  'pair',
  'side',
  'price',
  'quantity',
  'quote',
  'fee',
  'fee_asset',
  'pnl',
  'exchange',
];

export interface FillRow {
  timeMs: number;
  symbol: string;
  side: 'buy' | 'sell' | 'FUNDING';
  price: string;
  qty: string;
  quote: string;
  /** The fee valued in USDT, which is what was charged when `feePaid` is null. */
  fee: string;
  /** The asset the exchange charged the fee in, and the amount it charged (null: the USDT fee itself). */
  feeAsset: string;
  feePaid: string | null;
  pnl: string | null;
  /** The exchange the fill's bot was started on; null when not recorded (then the `exchange` of the export). */
  venue?: Venue | null;
}

/** RFC 4180 field: quoted when it holds a comma, quote or line break; a leading formula sign is neutralised. */
function field(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * The fills as CSV (CRLF line ends, as RFC 4180 writes them), oldest first. Each row names the exchange its bot
 * traded on, or `exchange` (the user's key's now; null: no key bound) for a bot started before that was recorded.
 */
export function fillsCsv(rows: readonly FillRow[], exchange: string | null): string {
  const lines = [FILLS_CSV_HEADER.join(',')];
  for (const r of rows) {
    lines.push(
      [
        new Date(r.timeMs).toISOString(),
        r.symbol,
        r.side.toUpperCase(),
        money(r.price).toFixed(),
        money(r.qty).toFixed(),
        money(r.quote).toFixed(),
        money(r.feePaid ?? r.fee).toFixed(),
        r.feeAsset,
        r.pnl === null ? '' : money(r.pnl).toFixed(),
        (r.venue ? VENUE_NAMES[r.venue] : exchange) ?? '',
      ]
        .map(field)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
