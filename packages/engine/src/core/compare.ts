/**
 * Price comparisons against percentage thresholds. docs/trading-rules.md §2.1 lets the engine compare with numbers;
 * within a relative 1e-9 of the threshold the comparison is redone in decimal, so a price exactly on a
 * threshold written in decimal (100 × (1 − 1.2/100) = 98.8) behaves as the rule reads, while ticks
 * away from it cost two float operations.
 */
import { money } from '../money';

const NEAR = 1e-9;

/** x × (1 + pct/100) as a number: the level `reachesUp` compares with, and the quiet band's (quiet-band.ts). */
export function upLevel(x: number, pct: number): number {
  return x * (1 + pct / 100);
}

/** x × (1 − pct/100) as a number: the level `reachesDown` compares with, and the quiet band's. */
export function downLevel(x: number, pct: number): number {
  return x * (1 - pct / 100);
}

/** p ≥ x × (1 + pct/100). */
export function reachesUp(p: number, x: number, pct: number): boolean {
  const t = upLevel(x, pct);
  const d = p - t;
  if (d > t * NEAR) return true;
  if (d < -t * NEAR) return false;
  return money(p).gte(money(x).times(money(pct).dividedBy(100).plus(1)));
}

/** p ≤ x × (1 − pct/100). */
export function reachesDown(p: number, x: number, pct: number): boolean {
  const t = downLevel(x, pct);
  const d = p - t;
  if (d < -t * NEAR) return true;
  if (d > t * NEAR) return false;
  return money(p).lte(money(x).times(money(1).minus(money(pct).dividedBy(100))));
}

/** p × qty ≥ quote × (1 + pct/100): p reached pct above the average entry quote / qty. */
export function reachesUpOnAverage(p: number, qty: number, quote: number, pct: number): boolean {
  const lhs = p * qty;
  const rhs = upLevel(quote, pct);
  const d = lhs - rhs;
  if (d > rhs * NEAR) return true;
  if (d < -rhs * NEAR) return false;
  return money(p)
    .times(qty)
    .gte(money(quote).times(money(pct).dividedBy(100).plus(1)));
}

/** x × (1 + pct/100) in decimal, as a number (cached trigger prices). */
export function priceAbove(x: number, pct: number): number {
  return money(x).times(money(pct).dividedBy(100).plus(1)).toNumber();
}

/** booked + qty × p − cost ≥ pct/100 × investment (profit book & stop), exact near the threshold. */
export function pnlReachesPct(
  booked: number,
  qty: number,
  cost: number,
  p: number,
  pct: number,
  investment: number,
): boolean {
  const total = booked + qty * p - cost;
  const target = pnlTarget(pct, investment);
  const scale = Math.max(Math.abs(target), Math.abs(cost), 1) * NEAR;
  if (total - target > scale) return true;
  if (total - target < -scale) return false;
  const exact = money(booked).plus(money(qty).times(p)).minus(cost);
  return exact.gte(money(pct).dividedBy(100).times(investment));
}

/** pct/100 × investment: the total PnL the profit book waits for. */
export function pnlTarget(pct: number, investment: number): number {
  return (pct / 100) * investment;
}

/** The price at which `pnlReachesPct` turns true while `qty` > 0 (as a number; the quiet band's level). */
export function pnlTargetPrice(
  booked: number,
  qty: number,
  cost: number,
  pct: number,
  investment: number,
): number {
  return (pnlTarget(pct, investment) - booked + cost) / qty;
}
