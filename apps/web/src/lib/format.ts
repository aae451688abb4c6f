/**
 * Numbers and dates are written here by hand, not by Intl: the first Intl formatter a page builds loads the locale's
 * data, about 20 ms of one task on a desktop core and four times that on a phone, on every screen that shows a
 * figure (docs/benchmarks.md, Web). The output is Intl's en-US numbers and en-GB dates, character for character
 * (format.test.ts checks it against Intl).
 */

/** The digits of `abs` (finite, ≥ 0) as the shortest decimal that reads back as the same number: '1005', point 1. */
function shortestDecimal(abs: number): { digits: string; point: number } {
  const [mantissa = '0', exponent = '0'] = abs.toExponential().split('e');
  return { digits: mantissa.replace('.', ''), point: Number(exponent) + 1 };
}

/** Adds one to a string of decimal digits: '0199' → '0200', '99' → '100'. */
function incremented(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i -= 1;
  if (i < 0) return `1${'0'.repeat(digits.length)}`;
  return `${digits.slice(0, i)}${Number(digits[i]) + 1}${'0'.repeat(digits.length - i - 1)}`;
}

/**
 * `value` with exactly `decimals` decimals and its thousands grouped, as Intl.NumberFormat('en-US') writes it:
 * rounded from the shortest decimal that reads back as the same number (1.005 → '1.01', where toFixed gives
 * '1.00'), halves away from zero, a '-' on negative numbers and on negative zero.
 */
function grouped(value: number, decimals: number): string {
  const { digits, point } = shortestDecimal(Math.abs(value));
  // Every digit up to the last kept decimal, zeros filled in on both sides of the significant ones.
  const padded = point > 0 ? digits.padEnd(point + decimals, '0') : '0'.repeat(1 - point) + digits;
  const wholeLength = Math.max(point, 1);
  let kept = padded.slice(0, wholeLength + decimals).padEnd(wholeLength + decimals, '0');
  if ((padded[wholeLength + decimals] ?? '0') >= '5') kept = incremented(kept);
  const whole = kept.slice(0, kept.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = kept.slice(kept.length - decimals);
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return decimals > 0 ? `${sign}${whole}.${fraction}` : `${sign}${whole}`;
}

/** `value` with up to `maxDecimals` decimals, trailing zeros dropped, grouped (Intl's maximumFractionDigits). */
function groupedUpTo(value: number, maxDecimals: number): string {
  const text = grouped(value, maxDecimals);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/**
 * A count or amount with up to `maxDecimals` decimals (trailing zeros dropped) and at least `minDecimals`, grouped,
 * as Intl.NumberFormat('en-US', { minimumFractionDigits, maximumFractionDigits }) writes it; '—' when not finite.
 */
export function formatNumber(value: number, maxDecimals = 2, minDecimals = 0): string {
  if (!Number.isFinite(value)) return '—';
  const text = groupedUpTo(value, maxDecimals);
  const decimals = text.split('.')[1]?.length ?? 0;
  if (decimals >= minDecimals) return text;
  return `${text}${decimals === 0 ? '.' : ''}${'0'.repeat(minDecimals - decimals)}`;
}

/** A price with as many decimals as its size needs (97,123.45 · 2.3456 · 0.38123), grouped, en-US. */
export function formatPrice(value: number): string {
  if (!Number.isFinite(value)) return '—';
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 2 : abs >= 1 ? 4 : abs >= 0.01 ? 5 : 8;
  return grouped(value, digits);
}

/** '+1.23%' / '-0.40%' / '0.00%'. */
export function formatChangePct(value: number): string {
  if (!Number.isFinite(value)) return '—';
  const sign = value > 0 ? '+' : '';
  return `${sign}${value.toFixed(2)}%`;
}

/** 'BTCUSDT' → 'BTC/USDT' (docs/spec/01-core-screens.md §3: pairs are shown with a slash before USDT). */
export function formatPair(symbol: string): string {
  return symbol.endsWith('USDT') ? `${symbol.slice(0, -4)}/USDT` : symbol;
}

/** '$1,234.56' / '-$3.20'; '—' when there is no number. Accepts decimal strings from the API. */
export function formatUsd(value: number | string | null | undefined): string {
  const n = typeof value === 'string' ? Number(value) : value;
  if (
    n === null ||
    n === undefined ||
    !Number.isFinite(n) ||
    (typeof value === 'string' && value.trim() === '')
  )
    return '—';
  return `${n < 0 ? '-' : ''}$${grouped(Math.abs(n), 2)}`;
}

/** '12.50%': two decimals, grouped; '—' when there is no number. Accepts decimal strings from the API. */
export function formatPct(value: number | string | null | undefined): string {
  const n = toNumber(value);
  return n === null ? '—' : `${grouped(n, 2)}%`;
}

/** A quantity with up to 8 decimals, grouped, no trailing zeros; '—' when there is no number. */
export function formatQty(value: number | string | null | undefined): string {
  const n = toNumber(value);
  return n === null ? '—' : groupedUpTo(n, 8);
}

/** A number from the API's number or decimal string; null when empty or not a finite number. */
export function toNumber(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** '+$1.20' above zero, '-$0.40' below, '$0.00' at zero. */
export function formatSignedUsd(value: number | string | null | undefined): string {
  const shown = formatUsd(value);
  return Number(value) > 0 ? `+${shown}` : shown;
}

// en-GB's short month names, as Intl writes them ('Sept', not 'Sep').
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];
const twoDigits = (n: number) => String(n).padStart(2, '0');

/** '05 Mar 2025', in the browser's time zone, as Intl's en-GB writes it. */
export function formatDay(date: Date): string {
  return `${twoDigits(date.getDate())} ${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

/** '14:02' (with ':11' seconds when asked), 24-hour, in the browser's time zone. */
export function formatTime(date: Date, withSeconds = false): string {
  const time = `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;
  return withSeconds ? `${time}:${twoDigits(date.getSeconds())}` : time;
}

/** '05 Mar 2025, 14:02' (with ':11' seconds when asked), in the browser's time zone, as Intl's en-GB writes it. */
function formatWith(withSeconds: boolean, value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${formatDay(date)}, ${formatTime(date, withSeconds)}`;
}

/** '05 Mar 2025, 14:02' in the browser's time zone; '—' when missing, the text itself when it is no date. */
export function formatDate(value: string | null | undefined): string {
  return formatWith(false, value);
}

/** '05 Mar 2025, 14:02:11' in the browser's time zone; '—' when missing. */
export function formatDateTime(value: string | null | undefined): string {
  return formatWith(true, value);
}

/** '0x12ab…9f3c': the head and tail of a long hash or address. */
export function shortHash(value: string, head = 6, tail = 4): string {
  return value.length > head + tail + 1 ? `${value.slice(0, head)}…${value.slice(-tail)}` : value;
}
