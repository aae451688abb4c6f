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
 * The price limits of a bot, wherever they are set (the Start bot form and route, the running bot's dialog and
 * route): a pause price above the live price (selling everything below the market would fire at once), a
 * stoploss below it (the bot would stop on its first tick), and a restart price below the pause price (a
 * bot paused at its pause price would restart at once). Unset limits (null) are not checked; with no live
 * price known (null) only the restart rule is.
 */
export function triggerVsLivePriceErrors(
  triggers: { pause: number | null; restart?: number | null; stoploss: number | null },
  livePrice: number | null,
): { pause?: string; restart?: string; stoploss?: string } {
  const errors: { pause?: string; restart?: string; stoploss?: string } = {};
  const { pause, stoploss, restart = null } = triggers;
  if (livePrice !== null && pause !== null && pause <= livePrice) errors.pause = m.pauseAboveLive;
  if (livePrice !== null && stoploss !== null && stoploss >= livePrice) errors.stoploss = m.stoplossBelowLive;
  if (pause !== null && restart !== null && restart >= pause) errors.restart = m.restartBelowPause;
  return errors;
}

/** The first of `triggerVsLivePriceErrors` in the form's order (pause, restart, stoploss): what a route answers. */
export function firstTriggerError(errors: { pause?: string; restart?: string; stoploss?: string }) {
  return errors.pause ?? errors.restart ?? errors.stoploss;
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
