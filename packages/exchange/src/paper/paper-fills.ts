import { coinCommission, feeOf, Money, money } from '@gridbot/shared';
import { increasePosition, initialMargin, reducePosition, sideOpenedBy } from './futures-math';
import type { BalanceMove, LedgerKind, PaperOrderRow, PaperPositionRow, PositionWrite } from './paper-store';

/** Base asset of a USDT pair ('BTCUSDT' → 'BTC'). */
export function baseAsset(symbol: string): string {
  return symbol.slice(0, -'USDT'.length);
}

/** Free→locked move of what an open order holds (no ledger row: the total does not change). */
export function reserveMoves(row: PaperOrderRow): BalanceMove[] {
  if (!row.reservedAsset || money(row.reserved).isZero()) return [];
  return [
    {
      wallet: row.market,
      asset: row.reservedAsset,
      freeDelta: money(row.reserved).negated().toFixed(),
      lockedDelta: row.reserved,
      kind: row.side,
      refId: row.clientOrderId,
    },
  ];
}

/** The reverse of `reserveMoves`: on fill, cancel or expiry. */
export function releaseMoves(row: PaperOrderRow): BalanceMove[] {
  if (!row.reservedAsset || money(row.reserved).isZero()) return [];
  return [
    {
      wallet: row.market,
      asset: row.reservedAsset,
      freeDelta: row.reserved,
      lockedDelta: money(row.reserved).negated().toFixed(),
      kind: row.side,
      refId: row.clientOrderId,
    },
  ];
}

/**
 * What an open limit order holds: a spot buy its quote (the fee comes out of the coin bought), a spot sell
 * its base, a futures order that may open (not reduce-only) the initial margin plus fee of its whole
 * quantity (same rounding as at fill, so a fill at the limit that opens it all uses it exactly). A futures
 * reduce-only order only closes and holds nothing.
 */
export function reservation(
  row: Pick<PaperOrderRow, 'market' | 'side' | 'symbol' | 'reduceOnly'>,
  qty: Money,
  price: Money,
  feePct: Money,
  leverage: number,
): { asset: string | undefined; amount: Money } {
  const notional = qty.times(price);
  if (row.market === 'spot') {
    return row.side === 'buy'
      ? { asset: 'USDT', amount: notional }
      : { asset: baseAsset(row.symbol), amount: qty };
  }
  if (row.reduceOnly) return { asset: undefined, amount: money(0) };
  return { asset: 'USDT', amount: initialMargin(notional, leverage).plus(feeOf(notional, feePct)) };
}

function move(
  wallet: 'spot' | 'future',
  asset: string,
  freeDelta: Money,
  kind: LedgerKind,
  refId: string,
): BalanceMove {
  return { wallet, asset, freeDelta: freeDelta.toFixed(), lockedDelta: '0', kind, refId };
}

/**
 * Balance moves of a spot fill: base against quote, the fee taken from the asset received as on Binance
 * (docs/trading-rules.md §3 "fills come with their fees"): a buy pays its quote and receives qty − fee of the
 * coin, a sell receives quote − fee USDT. So a buy never needs more USDT than its quote.
 */
export function spotFillMoves(
  row: PaperOrderRow,
  qty: Money,
  price: Money,
  feePct: Money,
  kind?: LedgerKind,
): { moves: BalanceMove[]; fee: Money; feeAsset: string } {
  const quote = qty.times(price);
  const ref = row.clientOrderId;
  const base = baseAsset(row.symbol);
  if (row.side === 'buy') {
    const fee = coinCommission(qty, feePct);
    const moves = [
      move('spot', 'USDT', quote.negated(), kind ?? 'buy', ref),
      move('spot', base, qty, kind ?? 'buy', ref),
      move('spot', base, fee.negated(), 'fee', ref),
    ];
    return { moves: [...releaseMoves(row), ...moves], fee, feeAsset: base };
  }
  const fee = feeOf(quote, feePct);
  const moves = [
    move('spot', base, qty.negated(), kind ?? 'sell', ref),
    move('spot', 'USDT', quote, kind ?? 'sell', ref),
    move('spot', 'USDT', fee.negated(), 'fee', ref),
  ];
  return { moves: [...releaseMoves(row), ...moves], fee, feeAsset: 'USDT' };
}

export interface FuturesFill {
  moves: BalanceMove[];
  fee: Money;
  position: PositionWrite;
}

/**
 * Whether a reduce-only order of `qty` on `side` only reduces `position`: there is a position on the other
 * side and the order is not larger than it (Binance USDT-M "New Order": `reduceOnly` orders only reduce, else
 * -2022 "ReduceOnly Order is rejected."; a reduce-only order never opens or flips a position).
 */
export function reducesOnly(
  position: Pick<PaperPositionRow, 'side' | 'quantity'> | undefined,
  side: 'buy' | 'sell',
  qty: Money,
): boolean {
  return position !== undefined && position.side !== sideOpenedBy(side) && qty.lte(position.quantity);
}

/**
 * A futures fill on the one-way position (Binance USDT-M one-way mode, `positionSide` BOTH): the part of `qty`
 * against the position closes it (its margin share released, PnL realized: long qty × (exit − entry), short
 * qty × (entry − exit)); the rest opens or grows the position on the order's side (initial margin moves from
 * free to locked USDT). The fee is paid on the whole notional. A reduce-only order is checked by the caller.
 */
export function futuresFill(
  row: PaperOrderRow,
  current: PaperPositionRow | undefined,
  qty: Money,
  price: Money,
  feePct: Money,
  maintMarginRate: number,
  tsMs: number,
): FuturesFill {
  const opens = sideOpenedBy(row.side);
  const against = current !== undefined && current.side !== opens;
  const closeQty = against ? Money.min(qty, current.quantity) : money(0);
  const openQty = qty.minus(closeQty);
  const fee = feeOf(qty.times(price), feePct);
  const ref = row.clientOrderId;
  const moves: BalanceMove[] = [...releaseMoves(row)];
  let next: Omit<PaperPositionRow, 'version'> | null = current ?? null;
  if (closeQty.gt(0)) {
    const closed = reducePosition(current!, closeQty, price, tsMs);
    moves.push(
      {
        wallet: 'future',
        asset: 'USDT',
        freeDelta: closed.marginReleased.toFixed(),
        lockedDelta: closed.marginReleased.negated().toFixed(),
        kind: row.side,
        refId: ref,
      },
      move('future', 'USDT', closed.realizedPnl, 'realized_pnl', ref),
    );
    next = closed.next;
  }
  if (openQty.gt(0)) {
    const leverage = row.leverage ?? 1;
    const margin = initialMargin(openQty.times(price), leverage);
    moves.push({
      wallet: 'future',
      asset: 'USDT',
      freeDelta: margin.negated().toFixed(),
      lockedDelta: margin.toFixed(),
      kind: row.side,
      refId: ref,
    });
    next = increasePosition(
      against ? undefined : current,
      { userId: row.userId, symbol: row.symbol, side: opens, leverage, maintMarginRate, tsMs },
      openQty,
      price,
      margin,
    );
  }
  moves.push(move('future', 'USDT', fee.negated(), 'fee', ref));
  return { moves, fee, position: { symbol: row.symbol, expectVersion: current?.version ?? null, next } };
}

/** The order row once filled whole at `price`. */
export function filledRow(
  row: PaperOrderRow,
  qty: Money,
  price: Money,
  fee: Money,
  tsMs: number,
  feeAsset = 'USDT',
): PaperOrderRow {
  return {
    ...row,
    status: 'FILLED',
    filledQuantity: qty.toFixed(),
    filledQuote: qty.times(price).toFixed(),
    averagePrice: price.toFixed(),
    fee: fee.toFixed(),
    feeAsset,
    reserved: '0',
    updatedMs: tsMs,
  };
}
