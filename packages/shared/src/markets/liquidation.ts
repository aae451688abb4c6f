/**
 * The one liquidation price of an isolated one-way long (docs/trading-rules.md §2.2), used by the engine and the
 * paper exchange so the two always agree. Binance's isolated formula (USD-M "Liquidation Price
 * Calculation", one-way mode, cross terms zero): at the liquidation price P the position's equity
 * M + Q × (P − E) equals its maintenance margin Q × P × m − cum, so
 *   P = (Q × E − M − cum) / (Q × (1 − m)),
 * with m and cum (the bracket's "maintenance amount") taken from the leverage bracket that holds the
 * position's notional at entry, Q × E.
 */

import { Money, type MoneyInput, money } from '../money/money';
import type { MaintBracket } from './leverage-brackets';
import { DEFAULT_MAINT_MARGIN_RATE } from './market-rules.types';

/** USDT amounts of a futures position are kept to 8 decimals (Binance's futures wallet precision). */
export const FUTURES_USDT_DECIMALS = 8;

/** Used where a symbol's brackets are unknown: one bracket at 0.5 % without maintenance amount. */
export const DEFAULT_MAINT_BRACKETS: readonly MaintBracket[] = [
  [Number.MAX_VALUE, DEFAULT_MAINT_MARGIN_RATE, 0],
];

/** Maintenance rate and amount of the bracket holding `notional` (the last bracket beyond every cap). */
export function maintenanceFor(
  brackets: readonly MaintBracket[] | undefined,
  notional: number,
): { rate: number; amount: number } {
  const list = brackets && brackets.length > 0 ? brackets : DEFAULT_MAINT_BRACKETS;
  for (const [cap, rate, amount] of list) if (notional < cap) return { rate, amount };
  const [, rate, amount] = list[list.length - 1] as MaintBracket;
  return { rate, amount };
}

/** An isolated long as the exchange keeps it: size Q, entry notional Q × E (average entry), margin M. */
export interface LongPosition {
  qty: MoneyInput;
  entryNotional: MoneyInput;
  margin: MoneyInput;
}

/**
 * Liquidation price of `position` with the symbol's brackets, rounded up to 8 decimals (a price
 * the position is certain to be liquidated at). 0 when flat or when it would be ≤ 0 (e.g. 1×).
 */
export function liquidationPrice(
  position: LongPosition,
  brackets: readonly MaintBracket[] | undefined,
): Money {
  const q = money(position.qty);
  if (q.lte(0)) return money(0);
  const notional = money(position.entryNotional);
  const { rate, amount } = maintenanceFor(brackets, notional.toNumber());
  const liq = notional
    .minus(position.margin)
    .minus(amount)
    .dividedBy(q.times(money(1).minus(rate)));
  return liq.lte(0) ? money(0) : liq.toDecimalPlaces(FUTURES_USDT_DECIMALS, Money.ROUND_UP);
}

/** Initial margin of a notional at a leverage, rounded up so the wallet never lends a fraction of a cent. */
export function initialMargin(notional: MoneyInput, leverage: number): Money {
  return money(notional).dividedBy(leverage).toDecimalPlaces(FUTURES_USDT_DECIMALS, Money.ROUND_UP);
}

/** The position after buying `qty` for `notional` with `margin` added. */
export function addToLong(position: LongPosition, qty: MoneyInput, notional: MoneyInput, margin: MoneyInput) {
  return {
    qty: money(position.qty).plus(qty),
    entryNotional: money(position.entryNotional).plus(notional),
    margin: money(position.margin).plus(margin),
  };
}

/**
 * Selling `qty` of the long: the average entry stays, cost and margin are released in proportion to
 * the quantity sold (8 decimals); a sale of the whole size releases exactly what is held.
 */
export function reduceLongPosition(
  position: LongPosition,
  qty: MoneyInput,
): { rest: { qty: Money; entryNotional: Money; margin: Money }; costReleased: Money; marginReleased: Money } {
  const size = money(position.qty);
  const cost = money(position.entryNotional);
  const margin = money(position.margin);
  const sold = money(qty);
  if (sold.gte(size)) {
    return {
      rest: { qty: money(0), entryNotional: money(0), margin: money(0) },
      costReleased: cost,
      marginReleased: margin,
    };
  }
  const share = sold.dividedBy(size);
  const costReleased = cost.times(share).toDecimalPlaces(FUTURES_USDT_DECIMALS);
  const marginReleased = margin.times(share).toDecimalPlaces(FUTURES_USDT_DECIMALS);
  return {
    rest: {
      qty: size.minus(sold),
      entryNotional: cost.minus(costReleased),
      margin: margin.minus(marginReleased),
    },
    costReleased,
    marginReleased,
  };
}

/**
 * Liquidation price of an isolated one-way short, the mirror of `liquidationPrice` (Binance's isolated
 * formula with the position side negative): at the liquidation price P the short's equity
 * M + Q × (E − P) equals its maintenance margin Q × P × m − cum, so
 *   P = (Q × E + M + cum) / (Q × (1 + m)),
 * rounded down to 8 decimals (a price the short is certain to be liquidated at). 0 when flat.
 */
export function shortLiquidationPrice(
  position: LongPosition,
  brackets: readonly MaintBracket[] | undefined,
): Money {
  const q = money(position.qty);
  if (q.lte(0)) return money(0);
  const notional = money(position.entryNotional);
  const { rate, amount } = maintenanceFor(brackets, notional.toNumber());
  return notional
    .plus(position.margin)
    .plus(amount)
    .dividedBy(q.times(money(1).plus(rate)))
    .toDecimalPlaces(FUTURES_USDT_DECIMALS, Money.ROUND_DOWN);
}
