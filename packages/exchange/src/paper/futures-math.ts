/**
 * The paper exchange's futures position bookkeeping: one isolated one-way position per symbol, long or short
 * (Binance USDT-M one-way mode). The money rules themselves (initial margin, average entry, proportional
 * release, the liquidation prices with the symbol's leverage brackets) are the shared ones the engine uses
 * too, so a paper bot's liquidation price equals the engine's.
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
  shortLiquidationPrice as sharedShortLiquidationPrice,
} from '@gridbot/shared';
import type { PaperPositionRow, PositionSide } from './paper-store';

/** Initial margin of a notional at a leverage, rounded up to 8 decimals. */
export function initialMargin(notional: Money, leverage: number): Money {
  return sharedInitialMargin(notional, leverage);
}

/**
 * Liquidation price of the `side` position of `quantity` with cost basis `entryNotional` and `margin` on
 * `symbol` (docs/trading-rules.md §2.2): a long is liquidated at or below it, a short at or above it.
 */
export function liquidationPrice(
  side: PositionSide,
  entryNotional: Money,
  margin: Money,
  quantity: Money,
  symbol: string,
): Money {
  const position = { qty: quantity, entryNotional, margin };
  const brackets = findMaintBrackets(symbol);
  return side === 'long'
    ? sharedLiquidationPrice(position, brackets)
    : sharedShortLiquidationPrice(position, brackets);
}

/** Whether the mark price liquidates the position: a long at or below its price, a short at or above it. */
export function liquidationReached(
  position: Pick<PaperPositionRow, 'side' | 'liquidationPrice'>,
  markPrice: Money,
): boolean {
  const liq = money(position.liquidationPrice);
  if (liq.lte(0)) return false;
  return position.side === 'long' ? markPrice.lte(liq) : markPrice.gte(liq);
}

/** The side of the position an order opens or grows: a buy goes long, a sell short. */
export function sideOpenedBy(orderSide: 'buy' | 'sell'): PositionSide {
  return orderSide === 'buy' ? 'long' : 'short';
}

type PositionFields = Omit<PaperPositionRow, 'version'>;

/**
 * The position after opening `qty` at `price` with `margin` added on `base.side`: grows `current` (which is
 * on that side) or opens a new one. The average entry is the cost basis over the size for either side.
 */
export function increasePosition(
  current: PaperPositionRow | undefined,
  base: {
    userId: string;
    symbol: string;
    side: PositionSide;
    leverage: number;
    maintMarginRate: number;
    tsMs: number;
  },
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
    side: base.side,
    quantity: next.qty.toFixed(),
    entryNotional: next.entryNotional.toFixed(),
    isolatedMargin: next.margin.toFixed(),
    leverage: base.leverage,
    maintMarginRate: base.maintMarginRate,
    liquidationPrice: liquidationPrice(
      base.side,
      next.entryNotional,
      next.margin,
      next.qty,
      base.symbol,
    ).toFixed(),
    updatedMs: base.tsMs,
  };
}

/**
 * Closing `qty` of the position at `price` (a sell of a long, a buy of a short): the share of margin
 * released, the realized PnL of that share (long: exit − cost; short: cost − exit, i.e. qty × (entry − exit))
 * and the remaining position (null when closed). The average entry stays; a full close releases exactly what
 * is held.
 */
export function reducePosition(
  current: PaperPositionRow,
  qty: Money,
  price: Money,
  tsMs: number,
): { next: PositionFields | null; marginReleased: Money; realizedPnl: Money } {
  const { rest, costReleased, marginReleased } = reduceLongPosition(
    { qty: current.quantity, entryNotional: current.entryNotional, margin: current.isolatedMargin },
    qty,
  );
  const exit = qty.times(price);
  const realizedPnl = current.side === 'long' ? exit.minus(costReleased) : costReleased.minus(exit);
  if (rest.qty.lte(0)) return { next: null, marginReleased, realizedPnl };
  const { version: _version, ...fields } = current;
  return {
    next: {
      ...fields,
      quantity: rest.qty.toFixed(),
      entryNotional: rest.entryNotional.toFixed(),
      isolatedMargin: rest.margin.toFixed(),
      liquidationPrice: liquidationPrice(
        current.side,
        rest.entryNotional,
        rest.margin,
        rest.qty,
        current.symbol,
      ).toFixed(),
      updatedMs: tsMs,
    },
    marginReleased,
    realizedPnl,
  };
}

/**
 * Funding of the position at a funding time (docs/trading-rules.md §2.2), as the signed change of the futures
 * wallet: size × mark price × rate, paid by a long and received by a short when the rate is positive, the
 * other way round when it is negative. Rounded to 8 decimals as the engine's `fundingPayment` rounds a long's
 * payment, and a short's is its mirror, so paper and backtest book the same amount.
 */
export function positionFunding(
  position: Pick<PaperPositionRow, 'side' | 'quantity'>,
  markPrice: Money,
  ratePerInterval: Money,
): Money {
  const longAmount = money(position.quantity)
    .times(markPrice)
    .times(ratePerInterval)
    .negated()
    .toDecimalPlaces(FUTURES_USDT_DECIMALS);
  return position.side === 'long' ? longAmount : longAmount.negated();
}

/** Entry price for display: cost basis / quantity, 8 decimals. */
export function entryPrice(position: Pick<PaperPositionRow, 'quantity' | 'entryNotional'>): Money {
  const qty = money(position.quantity);
  return qty.isZero()
    ? money(0)
    : money(position.entryNotional).dividedBy(qty).toDecimalPlaces(FUTURES_USDT_DECIMALS);
}
