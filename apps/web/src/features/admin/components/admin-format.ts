import { formatNumber, toNumber } from '../../../lib/format';

/** A decimal string as sent, trimmed of trailing zeros, with at least 2 decimals. */
export function formatDecimal(value: string | null | undefined): string {
  const n = toNumber(value);
  return n === null ? '—' : formatNumber(n, 8, 2);
}
