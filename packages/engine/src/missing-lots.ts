/**
 * Coins a spot bot's or cycle's lots count on but the exchange account no longer holds (the user sold them
 * outside the platform). The user chooses on Resume: drop the missing quantity from the lots, or buy it again.
 */
import { NO_TRAIL } from './core/grid-bot.state';
import { pendingOf } from './core/intents';
import { UNSET_BAND } from './core/quiet-band';
import { CYCLE_STATUS, transition } from './core/transitions';
import { utcDateKey } from './core/utc-date';
import type { EngineState } from './engine';
import { invariant } from './errors';
import {
  addDailyProfit,
  bookClosed,
  bracketsOf,
  buyFeeUsdt,
  type ClosedLot,
  reduceLot,
  sellFromPosition,
  withOpenTotals,
} from './fills/ledger';
import { type MoneyInput, money } from './money';
import { lotProfit } from './pnl/pnl';
import type { EngineRules } from './rules';
import type { Account, Fill, Lot, MarketBuy, PendingIntent } from './types';

/** Base quantity the lots hold beyond `held` (what the account has); 0 when nothing is missing. */
export function missingQty(state: { lots: readonly Lot[] }, held: MoneyInput): number {
  const lots = state.lots.reduce((sum, lot) => sum.plus(lot.qty), money(0));
  const missing = lots.minus(held);
  return missing.gt(0) ? missing.toNumber() : 0;
}

/**
 * What a re-buy of the missing quantity orders: the quantity rounded up to the step, so the account holds at
 * least the lots again, and its quote at `price` (a spot buy's fee comes out of the coin bought). Null when
 * nothing is missing. The route checks the free USDT with it before the user's choice is accepted.
 */
export function rebuyOrder(
  state: { lots: readonly Lot[] },
  held: MoneyInput,
  price: number,
  stepSize: string | number,
): { qty: string; quoteAmount: string; missingQty: string } | null {
  const missing = missingQty(state, held);
  if (missing === 0 || state.lots.length === 0) return null;
  const step = money(stepSize);
  const qty = money(missing).dividedBy(step).ceil().times(step);
  return { qty: qty.toFixed(), quoteAmount: qty.times(price).toFixed(), missingQty: String(missing) };
}

/** The newest lots' `missing` quantity closed at `price` without a fee, as dust is; `kept` is what remains. */
function dropNewest(
  lots: readonly Lot[],
  missing: number,
  price: number,
  timeMs: number,
): { kept: Lot[]; closed: ClosedLot[] } {
  let left = money(missing);
  const closed: ClosedLot[] = [];
  const kept: Lot[] = [];
  for (const lot of [...lots].reverse()) {
    const take = left.gte(lot.qty) ? money(lot.qty) : left;
    if (take.lte(0)) {
      kept.unshift(lot);
      continue;
    }
    const whole = take.eq(lot.qty);
    const buyQuote = whole ? lot.quote : take.times(lot.quote).dividedBy(lot.qty).toNumber();
    const buyFee = whole ? lot.fee : take.times(lot.fee).dividedBy(lot.qty).toNumber();
    const sellQuote = take.times(price).toNumber();
    closed.push({
      lotId: lot.id,
      grid: lot.grid,
      qty: take.toNumber(),
      buyPrice: lot.price,
      buyQuote,
      buyFee,
      sellPrice: price,
      sellQuote,
      sellFee: 0,
      profit: lotProfit(sellQuote, 0, buyQuote, buyFee),
      timeMs,
      reason: 'missing',
    });
    if (!whole) kept.unshift(reduceLot(lot, take.toNumber(), buyQuote, buyFee));
    left = left.minus(take);
  }
  return { kept, closed };
}

/**
 * Forgets the quantity the account no longer holds, newest lots first (the ones a sell would take first).
 * Each dropped part closes at `price` without a fee, as dust does (docs/trading-rules.md §3): the loss or
 * profit it made is booked, and the quantity is recorded on the bot (`account.missingQty`). A cycle left
 * with no coin waits to buy again (docs/trading-rules.md §2.4).
 */
export function dropMissingLots<S extends EngineState>(
  state: S,
  held: MoneyInput,
  price: number,
  timeMs: number,
): { state: S; closed: ClosedLot[] } {
  invariant(state.pending.length === 0, 'missing lots are dropped with no order under way');
  const missing = missingQty(state, held);
  if (missing === 0) return { state, closed: [] };
  const { kept, closed } = dropNewest(state.lots, missing, price, timeMs);
  const booked = bookClosed(state.account, closed, { dustQty: 0, dustCost: 0 }, 0);
  const recorded = {
    ...booked,
    missingQty: money(state.account.missingQty ?? 0)
      .plus(missing)
      .toNumber(),
  };
  const account = withOpenTotals(sellFromPosition(recorded, missing), kept, state.pending, bracketsOf(state));
  const profit = closed.reduce((sum, c) => sum.plus(c.profit), money(0)).toNumber();
  const stats = {
    ...state.stats,
    datewiseProfit: addDailyProfit(state.stats.datewiseProfit, utcDateKey(timeMs), profit),
  };
  if (state.kind === 'cycle') {
    const status =
      kept.length === 0 ? transition(CYCLE_STATUS, 'cycle', state.status, 'lot_dropped') : state.status;
    return { state: { ...state, lots: kept, account, stats, status }, closed };
  }
  const newestChanged = kept[kept.length - 1]?.id !== state.lots[state.lots.length - 1]?.id;
  return {
    state: {
      ...state,
      lots: kept,
      account,
      stats,
      trail: newestChanged ? NO_TRAIL : state.trail,
      quiet: UNSET_BAND,
    },
    closed,
  };
}

/**
 * A market buy of the quantity the account lacks (`rebuyOrder`), for the newest lot's grid. Its fill tops
 * that lot up (`topUpMissing`) rather than opening a grid or a cycle. Null when nothing is missing.
 */
export function rebuyMissing<S extends EngineState>(
  state: S,
  held: MoneyInput,
  price: number,
  rules: EngineRules,
): { state: S; intent: MarketBuy | null } {
  invariant(state.pending.length === 0, 'missing coins are bought with no order under way');
  const order = rebuyOrder(state, held, price, rules.stepSize);
  const newest = state.lots[state.lots.length - 1];
  if (order === null || newest === undefined) return { state, intent: null };
  const intent: MarketBuy = { type: 'MarketBuy', seq: state.seq + 1, grid: newest.grid, price, ...order };
  const pending = [...state.pending, pendingOf(intent, [], state.status, state.stopReason)];
  const next = { ...state, seq: intent.seq, pending };
  return { state: state.kind === 'cycle' ? next : { ...next, quiet: UNSET_BAND }, intent };
}

/**
 * The fill of a re-buy: the newest lot takes what was received beyond the missing quantity (a base fee makes
 * it less) and the cost of the re-buy, so the lots equal the coin the account now holds and the money spent
 * comes back out of the lot's sale.
 */
function topUpMissing(lots: readonly Lot[], intent: MarketBuy, fill: Fill): Lot[] {
  const newest = lots[lots.length - 1];
  invariant(newest !== undefined && intent.missingQty !== undefined, 'a re-buy tops up the newest lot');
  const baseFee = fill.feeAsset === 'base';
  const received = baseFee ? money(fill.qty).minus(fill.fee) : money(fill.qty);
  const qty = money(newest.qty).plus(received).minus(intent.missingQty);
  invariant(qty.gt(0), `re-buy ${fill.seq} leaves the newest lot empty`);
  const topped: Lot = {
    ...newest,
    qty: qty.toNumber(),
    quote: money(newest.quote).plus(fill.quote).toNumber(),
    margin: money(newest.margin).plus(fill.quote).toNumber(),
    fee: baseFee ? newest.fee : money(newest.fee).plus(fill.fee).toNumber(),
  };
  return [...lots.slice(0, -1), topped];
}

/**
 * A re-buy's fill booked on a bot or cycle: the lots topped up (`topUpMissing`), its fee and its trade
 * counted, the open totals taken again with `pending` (the state's pending intents without the re-buy).
 */
export function rebuyBooked(
  state: { lots: readonly Lot[]; account: Account } & Parameters<typeof bracketsOf>[0],
  pending: readonly PendingIntent[],
  intent: MarketBuy,
  fill: Fill,
): { lots: Lot[]; account: Account } {
  const lots = topUpMissing(state.lots, intent, fill);
  const fees = money(state.account.fees).plus(buyFeeUsdt(fill)).toNumber();
  const account = withOpenTotals(
    { ...state.account, fees, trades: state.account.trades + 1 },
    lots,
    pending,
    bracketsOf(state),
  );
  return { lots, account };
}
