/**
 * What the backtest panel says about the candles it runs on: the periods it can offer from the source's
 * coverage, the dates of the first and last candle, and whether they are real Binance history or the
 * simulated market's own record. The embedded default has real hourly candles only up to the day the app
 * was built, and 15-minute and 1-minute candles only of the simulated market since it started, so neither
 * "the last 90 days" nor "real price history" can be said of every run.
 */
import {
  type CandleSpan,
  HISTORY_INTERVAL_MS,
  type HistoryInterval,
  MAX_HISTORY_CANDLES,
} from '@gridbot/shared';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The fixed periods the panel offers, in days, where the source and the request size allow them. */
export const PERIOD_DAYS = [30, 90, 180, 365] as const;

export interface PeriodChoice {
  /** Days back from the span's last candle (a fraction for a whole span shorter than a day's multiple). */
  days: number;
  label: string;
}

/** A length of time in the largest unit that still reads as two or more. */
export function durationText(ms: number): string {
  if (ms >= 2 * DAY) return `${Math.floor(ms / DAY)} days`;
  if (ms >= 2 * HOUR) return `${Math.floor(ms / HOUR)} hours`;
  return `${Math.max(1, Math.floor(ms / MINUTE))} minutes`;
}

/**
 * The periods a span offers: each fixed period it covers (and one request may carry), then the whole span
 * when it is shorter than the longest fixed period one request may carry.
 */
export function periodChoices(
  span: Pick<CandleSpan, 'fromMs' | 'toMs'>,
  interval: HistoryInterval,
): PeriodChoice[] {
  const length = span.toMs - span.fromMs;
  const fits = (ms: number) => ms / HISTORY_INTERVAL_MS[interval] <= MAX_HISTORY_CANDLES;
  const allowed = PERIOD_DAYS.filter((d) => fits(d * DAY));
  const choices: PeriodChoice[] = allowed
    .filter((d) => d * DAY <= length)
    .map((d) => ({ days: d, label: `${d} days` }));
  const longest = allowed[allowed.length - 1] ?? 0;
  if (length > 0 && length < longest * DAY && fits(length) && !choices.some((c) => c.days * DAY === length))
    choices.push({ days: length / DAY, label: `All ${durationText(length)}` });
  return choices;
}

/** Whether the span's candles are real exchange history, and the words the panel uses for them. */
export function sourceText(source: CandleSpan['source']): { real: boolean; text: string } {
  switch (source) {
    case 'embedded':
      return { real: true, text: 'Real Binance price history (hourly candles shipped with the app)' };
    case 'binance':
      return { real: true, text: 'Real Binance price history' };
    case 'replay':
      return { real: true, text: 'Real Binance price history, replayed from files' };
    case 'sim':
      return {
        real: false,
        text: "Simulated prices: the candles this app's simulated market recorded, not real history",
      };
  }
}

/** `2025-03-05 14:00` in UTC. */
export function utc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * The first and last candle of a period (from ≤ open time < to) of the interval, and how many there are:
 * "2,160 candles: 2025-03-05 00:00 to 2025-06-02 23:00 UTC".
 */
export function candlesText(period: { fromMs: number; toMs: number }, interval: HistoryInterval): string {
  const size = HISTORY_INTERVAL_MS[interval];
  const count = Math.max(0, Math.ceil((period.toMs - period.fromMs) / size));
  const last = period.fromMs + Math.max(0, count - 1) * size;
  return `${count.toLocaleString('en-US')} candle${count === 1 ? '' : 's'}: ${utc(period.fromMs)} to ${utc(last)} UTC`;
}
