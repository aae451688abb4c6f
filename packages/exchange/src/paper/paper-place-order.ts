import { type Money, marketFillPrice, money } from '@gridbot/shared';
import { exchangeErrors } from '../exchange-error';
import type { Order, PlaceOrderInput } from '../exchange-port';
import { prepareOrder } from '../order-rules';
import type { PaperExchange } from './paper-exchange';
import { filledRow, futuresFill, reducesOnly, reservation, reserveMoves, spotFillMoves } from './paper-fills';
import { paperId, publicOrder } from './paper-rows';
import type { PaperChange, PaperOrderRow, PaperPositionRow } from './paper-store';

/**
 * Places one order for a user (already inside the user's queue). A client order id seen before
 * returns the stored order. Market orders, and limit orders that cross the last price, fill at once
 * at the last price (taker); other limit orders reserve their funds and wait for a crossing tick.
 */
export async function placeOrderNow(
  ex: PaperExchange,
  userId: string,
  input: PlaceOrderInput,
): Promise<Order> {
  // A spot order is not looked up first: the store answers `duplicate_order` with the stored row when the
  // id was used before, which saves a read per order. Futures look first: a repeated reduce-only sell
  // would otherwise be refused for the position its first copy already closed.
  if (input.market === 'future') {
    const existing = await ex.store.order(userId, input.clientOrderId);
    if (existing) return publicOrder(existing);
  }
  try {
    return await placeNew(ex, userId, input);
  } catch (error) {
    // A retry of an order that was placed (prices moved since, so the checks may now refuse it).
    const existing = input.market === 'spot' ? await ex.store.order(userId, input.clientOrderId) : undefined;
    if (existing) return publicOrder(existing);
    throw error;
  }
}

async function placeNew(ex: PaperExchange, userId: string, input: PlaceOrderInput): Promise<Order> {
  const { market, symbol } = input;
  const rules = ex.rules(symbol, market);
  const last = money(await ex.feed.price(symbol, market));
  if (market === 'future') await ex.liquidateIfDue(userId, symbol, last);
  const prepared = prepareOrder(input, rules, last);
  const tsMs = ex.now();
  const leverage = market === 'future' ? ((await ex.store.leverage(userId, symbol)) ?? 1) : undefined;
  const position = market === 'future' ? await ex.store.position(userId, symbol) : undefined;
  // One-way mode (Binance USDT-M "New Order", `positionSide` BOTH): an order against the position reduces it and
  // may flip it; a reduce-only one must only reduce, else -2022 "ReduceOnly Order is rejected.".
  const reduceOnly = market === 'future' && input.reduceOnly === true;
  if (reduceOnly && !reducesOnly(position, input.side, prepared.quantity)) throw exchangeErrors.reduceOnly();
  const row: PaperOrderRow = {
    userId,
    market,
    symbol,
    clientOrderId: input.clientOrderId,
    exchangeOrderId: paperId('', tsMs),
    side: input.side,
    type: input.type,
    status: 'NEW',
    price: prepared.price?.toFixed(),
    quantity: prepared.quantity.toFixed(),
    filledQuantity: '0',
    filledQuote: '0',
    averagePrice: undefined,
    fee: '0',
    feeAsset: 'USDT',
    createdMs: tsMs,
    updatedMs: tsMs,
    leverage,
    reduceOnly,
    reservedAsset: undefined,
    reserved: '0',
  };
  const crosses =
    prepared.price === undefined ||
    (input.side === 'buy' ? prepared.price.gte(last) : prepared.price.lte(last));
  // A post-only order that would trade at once is refused, as Binance refuses it (spot LIMIT_MAKER -2010,
  // futures GTX -5022): nothing is placed or reserved, and its client order id stays free.
  if (input.postOnly === true && prepared.price !== undefined && crosses)
    throw exchangeErrors.wouldTake(market);
  // A market order fills at the level of the engine event that sent it, else at the last price, rounded to the
  // tick against the taker (docs/trading-rules.md §2.5, the rounding backtests use); a crossing limit order at the
  // last price.
  const fillPrice =
    prepared.price === undefined ? marketFillPrice(last, input.side, rules.tickSize, input.eventPrice) : last;
  const change = crosses
    ? fillNow(ex, row, position, prepared.quantity, fillPrice, rules.maintMarginRate, tsMs)
    : rest(ex, row, prepared.quantity, prepared.price!, tsMs);
  const result = await ex.mustApply(change.change);
  if (!result.ok) {
    if (result.reason === 'duplicate_order') return publicOrder(result.existing);
    throw market === 'future' ? exchangeErrors.marginInsufficient() : exchangeErrors.insufficientBalance();
  }
  const nextPosition = change.change.position
    ? change.change.position.next
      ? await ex.store.position(userId, symbol)
      : null
    : undefined;
  ex.track(change.row, nextPosition, userId, symbol);
  return publicOrder(change.row);
}

function fillNow(
  ex: PaperExchange,
  row: PaperOrderRow,
  position: PaperPositionRow | undefined,
  qty: Money,
  price: Money,
  maintMarginRate: number,
  tsMs: number,
): { row: PaperOrderRow; change: PaperChange } {
  if (row.market === 'spot') {
    const { moves, fee, feeAsset } = spotFillMoves(row, qty, price, ex.fees.spot);
    const filled = filledRow(row, qty, price, fee, tsMs, feeAsset);
    return { row: filled, change: { userId: row.userId, tsMs, moves, order: { op: 'insert', row: filled } } };
  }
  const fill = futuresFill(row, position, qty, price, ex.fees.future, maintMarginRate, tsMs);
  const filled = filledRow(row, qty, price, fill.fee, tsMs);
  return {
    row: filled,
    change: {
      userId: row.userId,
      tsMs,
      moves: fill.moves,
      order: { op: 'insert', row: filled },
      position: fill.position,
    },
  };
}

function rest(
  ex: PaperExchange,
  row: PaperOrderRow,
  qty: Money,
  price: Money,
  tsMs: number,
): { row: PaperOrderRow; change: PaperChange } {
  // It will fill as a maker: a futures order that may open holds its margin and the maker fee, what its fill takes.
  const fee = row.market === 'spot' ? ex.makerFees.spot : ex.makerFees.future;
  const { asset, amount } = reservation(row, qty, price, fee, row.leverage ?? 1);
  const open: PaperOrderRow = { ...row, reservedAsset: asset, reserved: amount.toFixed() };
  return {
    row: open,
    change: { userId: row.userId, tsMs, moves: reserveMoves(open), order: { op: 'insert', row: open } },
  };
}
