import { Money, money } from '@gridbot/shared';
import type { PaperPositionRow } from './paper-store';

/** USDT amounts the paper exchange books are kept to 8 decimals (Binance's futures wallet precision). */
const USDT_DECIMALS = 8;

/** Initial margin of a notional at a leverage, rounded up so the wallet never lends a fraction of a cent. */
export function initialMargin(notional: Money, leverage: number): Money {
  return notional.dividedBy(leverage).toDecimalPlaces(USDT_DECIMALS, Money.ROUND_UP);
}

/**
 * Liquidation price of a long isolated position (DESIGN §2.2): `(Q × E − M) / (Q × (1 − m))`, where
 * Q × E is the cost basis. Never below 0 (a 1× long cannot be liquidated).
 */
export function liquidationPrice(
  entryNotional: Money,
  margin: Money,
  quantity: Money,
  maintRate: number,
): Money {
  if (quantity.lte(0)) return money(0);
  const liq = entryNotional.minus(margin).dividedBy(quantity.times(money(1).minus(maintRate)));
  return liq.isNegative() ? money(0) : liq.toDecimalPlaces(USDT_DECIMALS, Money.ROUND_UP);
}

type PositionFields = Omit<PaperPositionRow, 'version'>;

/** The position after buying `qty` at `price` with `margin` added. */
export function increaseLong(
  current: PaperPositionRow | undefined,
  base: { userId: string; symbol: string; leverage: number; maintMarginRate: number; tsMs: number },
  qty: Money,
  price: Money,
  margin: Money,
): PositionFields {
  const quantity = money(current?.quantity ?? 0).plus(qty);
  const entryNotional = money(current?.entryNotional ?? 0).plus(qty.times(price));
  const isolatedMargin = money(current?.isolatedMargin ?? 0).plus(margin);
  return {
    userId: base.userId,
    symbol: base.symbol,
    quantity: quantity.toFixed(),
    entryNotional: entryNotional.toFixed(),
    isolatedMargin: isolatedMargin.toFixed(),
    leverage: base.leverage,
    maintMarginRate: base.maintMarginRate,
    liquidationPrice: liquidationPrice(
      entryNotional,
      isolatedMargin,
      quantity,
      base.maintMarginRate,
    ).toFixed(),
    updatedMs: base.tsMs,
  };
}

/**
 * Selling `qty` of the long at `price`: the share of margin released, the realized PnL of that share
 * and the remaining position (null when closed). A full close releases exactly what is held.
 */
export function reduceLong(
  current: PaperPositionRow,
  qty: Money,
  price: Money,
  tsMs: number,
): { next: PositionFields | null; marginReleased: Money; realizedPnl: Money } {
  const quantity = money(current.quantity);
  const margin = money(current.isolatedMargin);
  const cost = money(current.entryNotional);
  const closesAll = qty.gte(quantity);
  const share = qty.dividedBy(quantity);
  const marginReleased = closesAll ? margin : margin.times(share).toDecimalPlaces(USDT_DECIMALS);
  const costReleased = closesAll ? cost : cost.times(share).toDecimalPlaces(USDT_DECIMALS);
  const realizedPnl = qty.times(price).minus(costReleased);
  if (closesAll) return { next: null, marginReleased, realizedPnl };
  const restQty = quantity.minus(qty);
  const restCost = cost.minus(costReleased);
  const restMargin = margin.minus(marginReleased);
  return {
    next: {
      ...current,
      quantity: restQty.toFixed(),
      entryNotional: restCost.toFixed(),
      isolatedMargin: restMargin.toFixed(),
      liquidationPrice: liquidationPrice(restCost, restMargin, restQty, current.maintMarginRate).toFixed(),
      updatedMs: tsMs,
    },
    marginReleased,
    realizedPnl,
  };
}

/** Entry price for display: cost basis / quantity, 8 decimals. */
export function entryPrice(position: Pick<PaperPositionRow, 'quantity' | 'entryNotional'>): Money {
  const qty = money(position.quantity);
  return qty.isZero()
    ? money(0)
    : money(position.entryNotional).dividedBy(qty).toDecimalPlaces(USDT_DECIMALS);
}
