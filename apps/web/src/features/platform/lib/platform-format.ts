import { Money, money } from '@gridbot/shared';

function parse(value: string | number | null | undefined) {
  if (value === null || value === undefined || value === '') return null;
  try {
    const parsed = money(value);
    return parsed.isFinite() ? parsed : null;
  } catch {
    return null;
  }
}

function group(fixed: string): string {
  const [int = '0', frac] = fixed.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/**
 * A token amount: 2 decimals at least, up to 8 when they matter, grouped, rounded down (a balance shown
 * must never be more than can be spent). '0.00' when missing: a wallet that was never filled holds nothing.
 */
export function formatAmount(value: string | number | null | undefined): string {
  const parsed = parse(value);
  if (!parsed) return '0.00';
  const exact = parsed.toDecimalPlaces(8, Money.ROUND_DOWN);
  return group(exact.decimalPlaces() <= 2 ? exact.toFixed(2) : exact.toFixed());
}

/** The exact amount for an input (no grouping), e.g. the ALL button. */
export function plainAmount(value: string | null | undefined): string {
  const parsed = parse(value);
  return parsed ? parsed.toDecimalPlaces(8, Money.ROUND_DOWN).toFixed() : '0';
}

/** True when `value` is a number above zero. */
export function isPositive(value: string | null | undefined): boolean {
  const parsed = parse(value);
  return parsed?.gt(0) ?? false;
}

/** `have` < `need`, both decimal strings. */
export function isShort(have: string | null | undefined, need: string): boolean {
  const h = parse(have) ?? money(0);
  const n = parse(need);
  return n !== null && h.lt(n);
}

/** 'mm:ss' for a countdown. */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** BscScan link of a transaction. */
export function txUrl(hash: string): string {
  return `https://bscscan.com/tx/${hash}`;
}
