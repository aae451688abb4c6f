/**
 * Engine money (docs/contributing.md §3): the shared decimal module plus number-in/number-out helpers that do the
 * arithmetic in decimal. State keeps plain numbers (it is JSON); every value that ends up in state at a
 * fill, or in an intent, is computed here in decimal so a number's shortest form is the exact value.
 * Only the per-tick comparisons of docs/trading-rules.md §2.1 use float arithmetic.
 */
import { type MoneyInput, money } from '@gridbot/shared';

export type { MoneyInput } from '@gridbot/shared';
export {
  coinCommission,
  decimalsOf,
  feeOf,
  floorToStep,
  floorToStepNumber,
  Money,
  money,
  roundToTick,
} from '@gridbot/shared';

/** a + b in decimal. */
export function decAdd(a: MoneyInput, b: MoneyInput): number {
  return money(a).plus(b).toNumber();
}

/** a − b in decimal. */
export function decSub(a: MoneyInput, b: MoneyInput): number {
  return money(a).minus(b).toNumber();
}

/** a × b in decimal. */
export function decMul(a: MoneyInput, b: MoneyInput): number {
  return money(a).times(b).toNumber();
}

/** a ÷ b in decimal (40 significant digits, then the nearest number). */
export function decDiv(a: MoneyInput, b: MoneyInput): number {
  return money(a).dividedBy(b).toNumber();
}

/** Σ values in decimal. */
export function decSum(values: readonly MoneyInput[]): number {
  let total = money(0);
  for (const v of values) total = total.plus(v);
  return total.toNumber();
}

/** A number from a number or a decimal string (fills from an exchange arrive as strings). */
export function toNumber(value: MoneyInput): number {
  return typeof value === 'number' ? value : money(value).toNumber();
}
