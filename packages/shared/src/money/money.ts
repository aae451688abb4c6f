/**
 * The one place where money is rounded (docs/trading-rules.md §2.1, docs/contributing.md §3–4). Engine, paper exchange and server
 * all call these; nobody re-implements step or tick rounding or fee math.
 *
 * Values that are persisted or sent to an exchange go through `Decimal`. The number variants exist for
 * the engine's hot path, where docs/trading-rules.md §2.1 allows plain numbers for internal comparisons; they round
 * through an integer count of steps so that 0.1 + 0.2 style drift never leaks into a quantity.
 */
import Decimal from 'decimal.js';

/** Decimal configured for money: 40 significant digits, half-up where a rule does not say otherwise. */
export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Money = Decimal;
export type MoneyInput = Decimal.Value;

/** A decimal from a number or string. Numbers go through their shortest string form, never binary digits. */
export function money(value: MoneyInput): Decimal {
  return new Money(value);
}

/** Largest multiple of `step` that is ≤ `value` (quantities: docs/trading-rules.md §2.1 rounds buys down to the step). */
export function floorToStep(value: MoneyInput, step: MoneyInput): Decimal {
  const s = money(step);
  return money(value).dividedToIntegerBy(s).times(s);
}

/** Nearest multiple of `tick` (prices). Half a tick rounds up. */
export function roundToTick(price: MoneyInput, tick: MoneyInput): Decimal {
  const t = money(tick);
  return money(price).dividedBy(t).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).times(t);
}

/** Fee of `feePct` percent on a quote or notional amount (docs/trading-rules.md §2.1: fees are paid in USDT). */
export function feeOf(quote: MoneyInput, feePct: MoneyInput): Decimal {
  return money(quote).times(feePct).dividedBy(100);
}

/** Decimals of a commission in Binance's fills and trade lists. */
const COMMISSION_DECIMALS = 8;

/**
 * A spot buy's commission as Binance takes it: in the coin received, `feePct` percent of the quantity, rounded
 * up to the 8 decimals Binance reports commissions in (docs/trading-rules.md §2.1). One rule for the backtest's
 * simulated fills and the paper exchange's.
 */
export function coinCommission(qty: MoneyInput, feePct: MoneyInput): Decimal {
  return feeOf(qty, feePct).toDecimalPlaces(COMMISSION_DECIMALS, Decimal.ROUND_UP);
}

/** Number of decimals of a step or tick such as '0.001' → 3. */
export function decimalsOf(step: MoneyInput): number {
  return money(step).decimalPlaces();
}

/**
 * Hot-path variant of `floorToStep` on numbers: counts whole steps with a tolerance of 1e-9 steps
 * (so 0.3 / 0.1 counts as 3, not 2.9999…) and rebuilds the quantity from the step's decimals.
 */
export function floorToStepNumber(value: number, step: number, stepDecimals: number): number {
  const steps = Math.floor(value / step + 1e-9);
  return Number((steps * step).toFixed(stepDecimals));
}
