/**
 * Lot bookkeeping shared by every strategy: opening a lot from a buy fill, closing lots from a sell
 * fill (with partial fills and base-fee dust), and recomputing the open totals. Decimal throughout.
 */

import {
  addToLong,
  initialMargin,
  type LongPosition,
  liquidationPrice,
  type MaintBracket,
  reduceLongPosition,
} from '@gridbot/shared';
import { priceAbove } from '../core/compare';
import { invariant } from '../errors';
import { money, toNumber } from '../money';
import { carriedDust, lotProfit } from '../pnl/pnl';
import type { Account, Fill, Intent, Lot, PendingIntent, SellReason } from '../types';

/** A lot (or the sold part of one) closed by a sell fill. */
export interface ClosedLot {
  lotId: number;
  grid: number;
  qty: number;
  buyPrice: number;
  buyQuote: number;
  buyFee: number;
  sellPrice: number;
  sellQuote: number;
  sellFee: number;
  profit: number;
  timeMs: number;
  reason: SellReason;
}

export interface LotTerms {
  grid: number;
  tpPct: number;
  tpDownPct: number;
  leverage: number;
}

/** A buy fill's fee in USDT: a fee taken in the coin bought is worth its amount at the fill price. */
export function buyFeeUsdt(fill: Fill): number {
  return fill.feeAsset === 'base'
    ? money(fill.fee).times(toNumber(fill.price)).toNumber()
    : toNumber(fill.fee);
}

/**
 * The lot a buy fill opens. Its qty is what was really received and its quote what was really spent
 * (futures: notional). A fee taken in the coin bought is already out of the quantity, so the lot carries no
 * fee of its own (counting it again would charge it twice); the bot's fee total still counts it
 * (`buyFeeUsdt`).
 */
export function lotFromBuyFill(seq: number, fill: Fill, terms: LotTerms): Lot {
  const price = toNumber(fill.price);
  const grossQty = money(fill.qty);
  const baseFee = fill.feeAsset === 'base';
  const qty = baseFee ? grossQty.minus(fill.fee) : grossQty;
  invariant(qty.gt(0), `buy fill ${seq} leaves no quantity`);
  const fee = baseFee ? 0 : toNumber(fill.fee);
  const quote = toNumber(fill.quote);
  return {
    id: seq,
    grid: terms.grid,
    price,
    qty: qty.toNumber(),
    quote,
    fee,
    margin: terms.leverage > 1 ? initialMargin(quote, terms.leverage).toNumber() : quote,
    timeMs: fill.timeMs,
    tpPct: terms.tpPct,
    tpDownPct: terms.tpDownPct,
    tpPrice: priceAbove(price, terms.tpPct),
    armed: false,
    high: 0,
  };
}

export interface SellOutcome {
  closed: ClosedLot[];
  /** Lots (or remainders of lots) still held after a partial fill. */
  kept: Lot[];
  /** What the sale adds to the bot's dust (negative when it sold carried dust). */
  dustQty: number;
  /** What it adds to the dust's booked value (negative when it sold dust that had one). */
  dustCost: number;
}

/** The carried dust a sell took with its lots, and the share of the dust's booked value that goes with it. */
export interface DustSold {
  qty: number;
  cost: number;
}

export const NO_DUST: DustSold = { qty: 0, cost: 0 };

/** The carried dust `intent` took with its lots, with its share of the dust's booked value. */
export function dustSoldWith(account: Account, intent: Intent): DustSold {
  if (intent.type !== 'SellLots' || intent.dustQty === undefined) return NO_DUST;
  const carried = carriedDust(account);
  const cost = account.dustCost ?? 0;
  const qty = money(intent.dustQty);
  return {
    qty: qty.toNumber(),
    cost: carried > 0 && cost !== 0 ? qty.times(cost).dividedBy(carried).toNumber() : 0,
  };
}

/**
 * Splits a sell fill over the lots it sold, in the intent's order (newest first). A fill of the whole
 * requested qty closes every lot and sells the carried `dust` the intent took with them; what the step
 * rounding leaves becomes the bot's dust (docs/trading-rules.md §2.1). The lots share the whole sell quote and
 * fee by qty (the dust's own cost was booked with the lots it came from), and the dust's booked value, when
 * it has one, as cost. A smaller fill closes lots in order and keeps the unsold rest.
 */
export function closeLots(
  lots: readonly Lot[],
  requestedQty: number,
  fill: Fill,
  reason: SellReason,
  dust: DustSold = NO_DUST,
): SellOutcome {
  const sold = money(fill.qty);
  const held = lots.reduce((s, l) => s.plus(l.qty), money(0));
  invariant(sold.lte(held.plus(dust.qty)), `sell fill ${fill.seq} of ${sold} exceeds the ${held} held`);
  const full = sold.gte(requestedQty);
  const dustCost = full && held.gt(0) ? money(dust.cost) : money(0);
  const price = toNumber(fill.price);
  const closed: ClosedLot[] = [];
  const kept: Lot[] = [];
  let left = sold;
  for (const lot of lots) {
    const take = full ? money(lot.qty) : money(lot.qty).lte(left) ? money(lot.qty) : left;
    if (take.lte(0)) {
      kept.push(lot);
      continue;
    }
    // Shares multiply before dividing so that e.g. 5 × 812.5488 / 8.061 is exactly 504.
    const basis = full ? held : sold;
    const whole = full || take.eq(lot.qty);
    const lotQuote = whole ? money(lot.quote) : take.times(lot.quote).dividedBy(lot.qty);
    const buyQuote = lotQuote.plus(dustCost.times(take).dividedBy(held)).toNumber();
    const buyFee = whole ? lot.fee : take.times(lot.fee).dividedBy(lot.qty).toNumber();
    const sellQuote = take.times(fill.quote).dividedBy(basis).toNumber();
    const sellFee = take.times(fill.fee).dividedBy(basis).toNumber();
    const soldQty = full ? take.times(sold).dividedBy(held).toNumber() : take.toNumber();
    closed.push({
      lotId: lot.id,
      grid: lot.grid,
      qty: soldQty,
      buyPrice: lot.price,
      buyQuote,
      buyFee,
      sellPrice: price,
      sellQuote,
      sellFee,
      profit: lotProfit(sellQuote, sellFee, buyQuote, buyFee),
      timeMs: fill.timeMs,
      reason,
    });
    if (!whole) kept.push(reduceLot(lot, take.toNumber(), lotQuote.toNumber(), buyFee));
    left = left.minus(take);
  }
  // Sold beyond the lots: carried dust went with them.
  const dustQty = full || sold.gt(held) ? held.minus(sold).toNumber() : 0;
  return { closed, kept, dustQty, dustCost: dustCost.negated().toNumber() };
}

/**
 * Lots left as dust (docs/trading-rules.md §3): their sell cannot go out (below the exchange's minimum quantity
 * or notional), so they leave the stack unsold. Each closes at `price` without a fee, so total PnL does not
 * jump; the whole quantity stays in the account as the bot's recorded dust, with that value as its booked
 * value (unrealized PnL counts the dust at the price less it, so it is not counted twice).
 */
export function leaveAsDust(
  lots: readonly Lot[],
  price: number,
  timeMs: number,
  reason: SellReason,
): SellOutcome {
  let dust = money(0);
  const closed = lots.map((lot): ClosedLot => {
    dust = dust.plus(lot.qty);
    const sellQuote = money(lot.qty).times(price).toNumber();
    return {
      lotId: lot.id,
      grid: lot.grid,
      qty: lot.qty,
      buyPrice: lot.price,
      buyQuote: lot.quote,
      buyFee: lot.fee,
      sellPrice: price,
      sellQuote,
      sellFee: 0,
      profit: lotProfit(sellQuote, 0, lot.quote, lot.fee),
      timeMs,
      reason,
    };
  });
  return { closed, kept: [], dustQty: dust.toNumber(), dustCost: dust.times(price).toNumber() };
}

export function reduceLot(lot: Lot, soldQty: number, soldQuote: number, soldFee: number): Lot {
  const quote = money(lot.quote).minus(soldQuote).toNumber();
  const ratio = money(quote).dividedBy(lot.quote);
  return {
    ...lot,
    qty: money(lot.qty).minus(soldQty).toNumber(),
    quote,
    fee: money(lot.fee).minus(soldFee).toNumber(),
    margin: ratio.times(lot.margin).toNumber(),
  };
}

/** Inserts lots into a stack kept in buy order (ascending id). */
export function insertLots(stack: readonly Lot[], lots: readonly Lot[]): Lot[] {
  if (lots.length === 0) return stack as Lot[];
  return [...stack, ...lots].sort((a, b) => a.id - b.id);
}

/** The futures position of an account (docs/trading-rules.md §2.2); the open lots' totals for a state saved without it. */
export function positionOf(account: Account): LongPosition {
  return account.posQty === undefined
    ? { qty: account.openQty, entryNotional: account.openQuote, margin: account.openMargin }
    : { qty: account.posQty, entryNotional: account.posNotional ?? 0, margin: account.posMargin ?? 0 };
}

/** The position after a buy fill opened `lot`: its size, notional and margin are added. */
export function buyIntoPosition(account: Account, lot: Lot): Account {
  const next = addToLong(positionOf(account), lot.qty, lot.quote, lot.margin);
  return {
    ...account,
    posQty: next.qty.toNumber(),
    posNotional: next.entryNotional.toNumber(),
    posMargin: next.margin.toNumber(),
  };
}

/** The position after selling `qty`: the average entry stays; cost and margin go in proportion. */
export function sellFromPosition(account: Account, qty: Fill['qty']): Account {
  const { rest } = reduceLongPosition(positionOf(account), qty);
  return {
    ...account,
    posQty: rest.qty.toNumber(),
    posNotional: rest.entryNotional.toNumber(),
    posMargin: rest.margin.toNumber(),
  };
}

/** The leverage brackets a futures bot's liquidation price uses; null on spot. */
export function bracketsOf(state: {
  market: string;
  maintMarginRate: number;
  maintBrackets?: readonly MaintBracket[];
}): readonly MaintBracket[] | null {
  if (state.market !== 'future') return null;
  return state.maintBrackets ?? [[Number.MAX_VALUE, state.maintMarginRate, 0]];
}

/**
 * Open totals from the lots still held: on the stack and inside pending sells (sold only when filled).
 * Recomputed in decimal at every fill so no float drift accumulates.
 */
export function withOpenTotals(
  account: Account,
  stack: readonly Lot[],
  pending: readonly PendingIntent[],
  brackets: readonly MaintBracket[] | null,
): Account {
  let qty = money(0);
  let quote = money(0);
  let margin = money(0);
  let cost = money(0);
  const add = (lot: Lot) => {
    qty = qty.plus(lot.qty);
    quote = quote.plus(lot.quote);
    margin = margin.plus(lot.margin);
    cost = cost.plus(lot.quote).plus(lot.fee);
  };
  for (const lot of stack) add(lot);
  for (const p of pending) for (const lot of p.lots) add(lot);
  const openQty = qty.toNumber();
  const openQuote = quote.toNumber();
  const openMargin = margin.toNumber();
  return {
    ...account,
    openQty,
    openQuote,
    openMargin,
    openCost: cost.toNumber(),
    liqPrice: brackets === null ? 0 : liquidationPrice(positionOf(account), brackets).toNumber(),
  };
}

/** Books closed lots: profit, fees, trade count (one per sell fill; none for lots left as dust), dust. */
export function bookClosed(
  account: Account,
  closed: readonly ClosedLot[],
  dust: Pick<SellOutcome, 'dustQty' | 'dustCost'>,
  trades: 0 | 1 = 1,
): Account {
  let booked = money(account.bookedProfit);
  let fees = money(account.fees);
  for (const c of closed) {
    booked = booked.plus(c.profit);
    fees = fees.plus(c.sellFee);
  }
  return {
    ...account,
    bookedProfit: booked.toNumber(),
    fees: fees.toNumber(),
    trades: account.trades + trades,
    dustQty: money(carriedDust(account)).plus(dust.dustQty).toNumber(),
    dustCost: money(account.dustCost ?? 0)
      .plus(dust.dustCost)
      .toNumber(),
  };
}

/** Adds booked profit to the UTC day of the sell (datewiseprofit). */
export function addDailyProfit(
  daily: Readonly<Record<string, number>>,
  day: string,
  profit: number,
): Record<string, number> {
  return {
    ...daily,
    [day]: money(daily[day] ?? 0)
      .plus(profit)
      .toNumber(),
  };
}
