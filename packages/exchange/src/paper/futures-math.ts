/**
 * The paper exchange's futures position bookkeeping. The money rules themselves (initial margin,
 * average entry, proportional release, the liquidation price with the symbol's leverage brackets)
 * are the shared ones the engine uses too, so a paper bot's liquidation price equals the engine's.
 */
import {
  addToLong,
  FUTURES_USDT_DECIMALS,
  findMaintBrackets,
  type Money,
  money,
  reduceLongPosition,
  initialMargin as sharedInitialMargin,
  liquidationPrice as sharedLiquidationPrice,
} from '@gridbot/shared';
import type { PaperPositionRow } from './paper-store';

/** Initial margin of a notional at a leverage, rounded up to 8 decimals. */
export function initialMargin(notional: Money, leverage: number): Money {
  return sharedInitialMargin(notional, leverage);
}

/** Liquidation price of the long `quantity` with cost basis `entryNotional` and `margin` on `symbol`. */
export function liquidationPrice(
  entryNotional: Money,
  margin: Money,
  quantity: Money,
  symbol: string,
): Money {
  return sharedLiquidationPrice({ qty: quantity, entryNotional, margin }, findMaintBrackets(symbol));
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
  const next = addToLong(
    {
      qty: current?.quantity ?? 0,
      entryNotional: current?.entryNotional ?? 0,
      margin: current?.isolatedMargin ?? 0,
    },
    qty,
    qty.times(price),
    margin,
  );
  return {
    userId: base.userId,
    symbol: base.symbol,
    quantity: next.qty.toFixed(),
    entryNotional: next.entryNotional.toFixed(),
    isolatedMargin: next.margin.toFixed(),
    leverage: base.leverage,
    maintMarginRate: base.maintMarginRate,
    liquidationPrice: liquidationPrice(next.entryNotional, next.margin, next.qty, base.symbol).toFixed(),
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
  const { rest, costReleased, marginReleased } = reduceLongPosition(
    { qty: current.quantity, entryNotional: current.entryNotional, margin: current.isolatedMargin },
    qty,
  );
  const realizedPnl = qty.times(price).minus(costReleased);
  if (rest.qty.lte(0)) return { next: null, marginReleased, realizedPnl };
  return {
    next: {
      ...current,
      quantity: rest.qty.toFixed(),
      entryNotional: rest.entryNotional.toFixed(),
      isolatedMargin: rest.margin.toFixed(),
      liquidationPrice: liquidationPrice(rest.entryNotional, rest.margin, rest.qty, current.symbol).toFixed(),
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
    : money(position.entryNotional).dividedBy(qty).toDecimalPlaces(FUTURES_USDT_DECIMALS);
}
