import { Money, money } from '@gridbot/shared';

/** Integer part with thousands separators, en-US: '12345.6' → '12,345.6'. */
function group(fixed: string): string {
  const [int = '0', frac] = fixed.split('.');
  const sign = int.startsWith('-') ? '-' : '';
  const digits = sign ? int.slice(1) : int;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? `${sign}${grouped}` : `${sign}${grouped}.${frac}`;
}

function parse(value: string | number | null | undefined) {
  if (value === null || value === undefined || value === '') return null;
  try {
    const parsed = money(value);
    return parsed.isFinite() ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * A USDT amount with 2 decimals (docs/spec/02-bots-wallet-account.md Wallet), or null when there is none. Rounded down: a balance
 * shown must never be more than what can be moved.
 */
export function formatUsdt(value: string | number | null | undefined): string | null {
  const parsed = parse(value);
  return parsed ? group(parsed.toFixed(2, Money.ROUND_DOWN)) : null;
}

/** An asset quantity as held: up to 8 decimals (rounded down), no trailing zeros, grouped. */
export function formatQuantity(value: string | number | null | undefined): string {
  const parsed = parse(value);
  return parsed ? group(parsed.toDecimalPlaces(8, Money.ROUND_DOWN).toFixed()) : '—';
}

/** True when `amount` is a number above `limit` (both decimal strings; no float rounding). */
export function exceeds(amount: string, limit: string | undefined): boolean {
  const a = parse(amount.trim());
  const l = parse(limit);
  return a !== null && l !== null && a.gt(l);
}

/** `amount` × `price` as a USDT figure, or null when either is missing or not a number. */
export function usdtValue(amount: string, price: string | undefined): string | null {
  const a = parse(amount.trim());
  const p = parse(price);
  if (!a || !p || a.lte(0)) return null;
  return formatUsdt(a.times(p).toFixed());
}
