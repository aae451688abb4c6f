import { formatPrice, toNumber } from '../../../lib/format';

export { formatPct, formatQty, formatSignedUsd, formatUsd, toNumber } from '../../../lib/format';

/** A price, or 'Not set' when the limit is empty. */
export function formatLimit(value: number | string | null | undefined): string {
  const n = toNumber(value);
  return n === null || n === 0 ? 'Not set' : formatPrice(n);
}

export function formatDays(value: number | null | undefined): string {
  const n = toNumber(value);
  if (n === null) return '—';
  return `${n.toFixed(2)} ${n === 1 ? 'day' : 'days'}`;
}

/** Tailwind text colour of a PnL: green above zero, red below, none at zero (docs/spec/02-bots-wallet-account.md Order Book). */
export function pnlTone(value: number | null | undefined): string {
  if (!value) return '';
  return value > 0 ? 'text-up' : 'text-down';
}
