/**
 * Exact decimal arithmetic on plain numbers for the range grid's fills, which come many times per candle
 * in a backtest. A number stands for the decimal of its shortest form (as `money()` reads it); when both
 * operands fit in 2^50 units of their last decimal, the sum, difference or product is
 * computed on those integers (each below 2^50, so the scaling rounds back to the exact integer) and
 * divided by a power of ten once — a correctly rounded division, so the
 * result is the number `money(a).plus(b).toNumber()` gives. Otherwise the decimal library does it.
 */
import { Money, money } from '../../money';

const MAX_DECIMALS = 15;
/**
 * Bound on a scaled operand: `x × 10^d` carries the float error of x (half an ulp) times 10^d, under
 * 2^-51 of its size; below 2^50 that stays under half a unit, so rounding recovers the integer.
 */
const SAFE = 2 ** 50;
const POW10: number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** Decimals of the shortest form of `x` (−1 beyond MAX_DECIMALS or not finite). */
export function decimalsOfNumber(x: number): number {
  if (Number.isInteger(x)) return Math.abs(x) <= SAFE ? 0 : -1;
  for (let d = 1; d <= MAX_DECIMALS; d++) {
    const p = POW10[d] as number;
    const n = Math.round(x * p);
    if (Math.abs(n) > SAFE) return -1;
    if (n / p === x) return d;
  }
  return -1;
}

function scaled(x: number, d: number): number {
  return Math.round(x * (POW10[d] as number));
}

export function exactAdd(a: number, b: number): number {
  const da = decimalsOfNumber(a);
  const db = decimalsOfNumber(b);
  if (da >= 0 && db >= 0) {
    const d = Math.max(da, db);
    const n = scaled(a, d) + scaled(b, d);
    if (Math.abs(scaled(a, d)) <= SAFE && Math.abs(scaled(b, d)) <= SAFE && Math.abs(n) <= SAFE)
      return n / (POW10[d] as number);
  }
  return money(a).plus(b).toNumber();
}

export function exactSub(a: number, b: number): number {
  return exactAdd(a, -b);
}

export function exactMul(a: number, b: number): number {
  const da = decimalsOfNumber(a);
  const db = decimalsOfNumber(b);
  if (da >= 0 && db >= 0 && da + db <= 22) {
    const n = scaled(a, da) * scaled(b, db);
    if (Math.abs(n) <= SAFE) return n / (POW10[da + db] as number);
  }
  return money(a).times(b).toNumber();
}

/** Largest multiple of `step` ≤ `x`. */
export function exactFloorToStep(x: number, step: number): number {
  const dx = decimalsOfNumber(x);
  const ds = decimalsOfNumber(step);
  if (dx >= 0 && ds >= 0) {
    const d = Math.max(dx, ds);
    const xs = scaled(x, d);
    const ss = scaled(step, d);
    if (Math.abs(xs) <= SAFE && ss > 0) {
      let k = Math.floor(xs / ss);
      // Float division may land one off at an exact multiple: settle it on the integers.
      if (k * ss > xs) k -= 1;
      else if ((k + 1) * ss <= xs) k += 1;
      return (k * ss) / (POW10[d] as number);
    }
  }
  return money(x).dividedToIntegerBy(step).times(step).toNumber();
}

/** `x` rounded up to `d` decimals. */
export function exactCeilTo(x: number, d: number): number {
  const dx = decimalsOfNumber(x);
  if (dx >= 0 && dx <= d) return x;
  if (dx >= 0) {
    const n = scaled(x, dx);
    const p = POW10[dx - d] as number;
    if (Math.abs(n) <= SAFE) {
      let q = Math.floor(n / p);
      if (q * p > n) q -= 1;
      else if ((q + 1) * p <= n) q += 1;
      if (q * p < n) q += 1;
      return q / (POW10[d] as number);
    }
  }
  return money(x).toDecimalPlaces(d, Money.ROUND_UP).toNumber();
}
