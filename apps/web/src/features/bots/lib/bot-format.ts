import { formatPrice } from '../../../lib/format';

export { formatSignedUsd, formatUsd } from '../../../lib/format';

const usd = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatPct(value: number | string | null | undefined): string {
  const n = toNumber(value);
  return n === null ? '—' : `${usd.format(n)}%`;
}

/** A price, or 'Not set' when the limit is empty. */
export function formatLimit(value: number | string | null | undefined): string {
  const n = toNumber(value);
  return n === null || n === 0 ? 'Not set' : formatPrice(n);
}

/** A quantity with up to 8 decimals, no trailing zeros. */
export function formatQty(value: number | string | null | undefined): string {
  const n = toNumber(value);
  if (n === null) return '—';
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: 8 }).format(n);
}

export function formatDays(value: number | null | undefined): string {
  const n = toNumber(value);
  if (n === null) return '—';
  return `${n.toFixed(2)} ${n === 1 ? 'day' : 'days'}`;
}

export function toNumber(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** Tailwind text colour of a PnL: green above zero, red below, none at zero (docs/spec/02-bots-wallet-account.md Order Book). */
export function pnlTone(value: number | null | undefined): string {
  if (!value) return '';
  return value > 0 ? 'text-up' : 'text-down';
}
