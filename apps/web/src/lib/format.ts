const priceFormats = new Map<number, Intl.NumberFormat>();

function priceFormat(digits: number): Intl.NumberFormat {
  let format = priceFormats.get(digits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    priceFormats.set(digits, format);
  }
  return format;
}

/** A price with as many decimals as its size needs (97,123.45 · 2.3456 · 0.38123), grouped, en-US. */
export function formatPrice(value: number): string {
  if (!Number.isFinite(value)) return '—';
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 2 : abs >= 1 ? 4 : abs >= 0.01 ? 5 : 8;
  return priceFormat(digits).format(value);
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

/**
 * Builds a formatter on its first use and keeps it: constructing an Intl formatter loads the locale's data,
 * which would otherwise hold up every page that imports this module, formats used there or not.
 */
function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

const usdFormat = once(
  () => new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
);
const qtyFormat = once(() => new Intl.NumberFormat('en-US', { maximumFractionDigits: 8 }));

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
  return `${n < 0 ? '-' : ''}$${usdFormat().format(Math.abs(n))}`;
}

/** '12.50%': two decimals, grouped; '—' when there is no number. Accepts decimal strings from the API. */
export function formatPct(value: number | string | null | undefined): string {
  const n = toNumber(value);
  return n === null ? '—' : `${usdFormat().format(n)}%`;
}

/** A quantity with up to 8 decimals, grouped, no trailing zeros; '—' when there is no number. */
export function formatQty(value: number | string | null | undefined): string {
  const n = toNumber(value);
  return n === null ? '—' : qtyFormat().format(n);
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

const dateFormat = {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
} as const;
const minutes = once(() => new Intl.DateTimeFormat('en-GB', { ...dateFormat, hour12: false }));
const seconds = once(
  () => new Intl.DateTimeFormat('en-GB', { ...dateFormat, second: '2-digit', hour12: false }),
);

function formatWith(format: () => Intl.DateTimeFormat, value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : format().format(date);
}

/** '05 Mar 2025, 14:02' in the browser's time zone; '—' when missing, the text itself when it is no date. */
export function formatDate(value: string | null | undefined): string {
  return formatWith(minutes, value);
}

/** '05 Mar 2025, 14:02:11' in the browser's time zone; '—' when missing. */
export function formatDateTime(value: string | null | undefined): string {
  return formatWith(seconds, value);
}

/**
 * Builds the formatters the first screens use, ahead of them. The first Intl formatter of a page loads the
 * locale data: about 20 ms on a desktop core, four times that on a phone, which inside the render of the first
 * figures made that render one long task. Called once the first render is under way, it runs as a task of its
 * own while the page waits for its data.
 */
export function prepareFormats(): void {
  usdFormat();
  qtyFormat();
  priceFormat(2);
  seconds();
}

/** '0x12ab…9f3c': the head and tail of a long hash or address. */
export function shortHash(value: string, head = 6, tail = 4): string {
  return value.length > head + tail + 1 ? `${value.slice(0, head)}…${value.slice(-tail)}` : value;
}
