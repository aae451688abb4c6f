import { botMessages as m } from './bots.messages';

/**
 * The rules of a running bot's settings (docs/spec/02-bots-wallet-account.md §5), written once: the web's
 * dialogs check them before sending and the server checks them again with its own live price and grid count.
 * Each returns the specification's message, or undefined when the value is allowed.
 */

/** Profit book & stop at: a percentage of the investment from 1 to 1000. */
export const PROFIT_BOOK_MIN_PCT = 1;
export const PROFIT_BOOK_MAX_PCT = 1000;

/** A price trigger (pause, restart, stoploss) is a positive number. */
export function triggerPriceError(price: number): string | undefined {
  return Number.isFinite(price) && price > 0 ? undefined : m.priceNumber;
}

/**
 * The price triggers against the live price: a pause price must be above it (selling everything below the
 * market would fire at once) and a stoploss below it. Unset triggers (null) are not checked.
 */
export function triggerVsLivePriceErrors(
  triggers: { pause: number | null; stoploss: number | null },
  livePrice: number,
): { pause?: string; stoploss?: string } {
  const errors: { pause?: string; stoploss?: string } = {};
  if (triggers.pause !== null && triggers.pause <= livePrice) errors.pause = m.pauseAboveLive;
  if (triggers.stoploss !== null && triggers.stoploss >= livePrice) errors.stoploss = m.stoplossBelowLive;
  return errors;
}

/**
 * Overbuy grid protection: a whole grid number from 1 to the bot's grids minus one. Text must be plain digits
 * (no "3.0" or "1e1"), as the form's field accepts.
 */
export function overbuyGridError(value: number | string, totalGrids: number): string | undefined {
  const max = totalGrids - 1;
  const n =
    typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  return Number.isInteger(n) && n >= 1 && n <= max ? undefined : m.overbuyRange(max);
}

/** Profit book & stop at (%): from PROFIT_BOOK_MIN_PCT to PROFIT_BOOK_MAX_PCT. */
export function profitBookPctError(pct: number): string | undefined {
  if (!Number.isFinite(pct) || pct < PROFIT_BOOK_MIN_PCT) return m.profitBookMin;
  if (pct > PROFIT_BOOK_MAX_PCT) return m.profitBookMax;
  return undefined;
}
