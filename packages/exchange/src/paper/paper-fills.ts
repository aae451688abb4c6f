import { coinCommission, feeOf, type Money, money } from '@gridbot/shared';
import { increaseLong, initialMargin, reduceLong } from './futures-math';
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
 * its base, a futures buy
 * its initial margin plus fee (same rounding as at fill, so a fill at the limit uses it exactly).
 * Futures sells are reduce-only and hold nothing.
 */
export function reservation(
  row: Pick<PaperOrderRow, 'market' | 'side' | 'symbol'>,
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
  if (row.side === 'sell') return { asset: undefined, amount: money(0) };
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

/** A futures buy: margin moves from free to locked USDT, fee paid, the long grows. */
export function futuresBuyFill(
  row: PaperOrderRow,
  current: PaperPositionRow | undefined,
  qty: Money,
  price: Money,
  feePct: Money,
  maintMarginRate: number,
  tsMs: number,
): FuturesFill {
  const leverage = row.leverage ?? 1;
  const notional = qty.times(price);
  const margin = initialMargin(notional, leverage);
  const fee = feeOf(notional, feePct);
  const ref = row.clientOrderId;
  const moves: BalanceMove[] = [
    ...releaseMoves(row),
    {
      wallet: 'future',
      asset: 'USDT',
      freeDelta: margin.negated().toFixed(),
      lockedDelta: margin.toFixed(),
      kind: 'buy',
      refId: ref,
    },
    move('future', 'USDT', fee.negated(), 'fee', ref),
  ];
  const next = increaseLong(
    current,
    { userId: row.userId, symbol: row.symbol, leverage, maintMarginRate, tsMs },
    qty,
    price,
    margin,
  );
  return { moves, fee, position: { symbol: row.symbol, expectVersion: current?.version ?? null, next } };
}

/** A futures sell (reduce-only): the margin share is released, PnL realized, fee paid. */
export function futuresSellFill(
  row: PaperOrderRow,
  current: PaperPositionRow,
  qty: Money,
  price: Money,
  feePct: Money,
  tsMs: number,
): FuturesFill {
  const { next, marginReleased, realizedPnl } = reduceLong(current, qty, price, tsMs);
  const fee = feeOf(qty.times(price), feePct);
  const ref = row.clientOrderId;
  const moves: BalanceMove[] = [
    {
      wallet: 'future',
      asset: 'USDT',
      freeDelta: marginReleased.toFixed(),
      lockedDelta: marginReleased.negated().toFixed(),
      kind: 'sell',
      refId: ref,
    },
    move('future', 'USDT', realizedPnl, 'realized_pnl', ref),
    move('future', 'USDT', fee.negated(), 'fee', ref),
  ];
  return { moves, fee, position: { symbol: row.symbol, expectVersion: current.version, next } };
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
