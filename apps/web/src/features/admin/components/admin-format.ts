/** A decimal string as sent, trimmed of trailing zeros, with at least 2 decimals. */
export function formatDecimal(value: string | null | undefined): string {
  const n = Number(value);
  if (value === null || value === undefined || value === '' || !Number.isFinite(n)) return '—';
  return n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 8 });
}
