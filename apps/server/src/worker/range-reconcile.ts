import {
  misplacedOrders,
  type PlaceLimit,
  type RangeIntent,
  type RangeOrder,
  relayLost,
} from '@gridbot/engine';
import { ErrorCode, type FetchOrderResult, isExchangeError, type Order } from '@gridbot/exchange';
import { intentInDoubtSince, markIntentResending } from './intents.repo';
import { bookOrder } from './range-booking';
import type { RangeCore } from './range-core';
import { endIntentFailed, openCancels } from './range-intents.repo';
import { bookedAtExchange, restOf } from './range-parts';

// A range grid after a restart or a takeover (docs/trading-rules.md §3): its intents and resting orders
// matched to the exchange's book by client order id, over the runner's `RangeCore`.

/**
 * After a restart or a takeover (docs/trading-rules.md §3): a market order in flight is looked up and booked
 * or sent again with its id; cancels written but not carried out are carried out; each resting order is
 * matched to the exchange's open orders by client order id: filled ones are booked (in the order they
 * filled), missing ones placed again; an open order of this bot the grid no longer holds is cancelled, so a
 * level never holds two orders.
 */
export async function reconcile(core: RangeCore): Promise<void> {
  const { market, symbol } = core.id;
  const ex = core.deps.exchange;
  const price = core.lastPrice ?? core.state.stats.startPrice;
  for (const c of await openCancels(core.deps.db, core.id.botId)) await core.cancel(c.seq, c.orderSeq);
  const pending = core.state.pending;
  if (pending !== null) {
    const found = await lookUpPastWindow(core, pending.intent.seq);
    if (core.finished) return;
    if (found.found) await bookOrder(core, found.order, pending.intent.seq, pending.intent.price);
    else await sendAgain(core, pending.intent, pending.intent.price);
  }
  const open = await ex.openOrders(market, symbol);
  const openById = new Map(open.map((o) => [o.clientOrderId, o]));
  const filled: { order: Order; seq: number; price: number }[] = [];
  const lost: RangeOrder[] = [];
  for (const o of core.state.orders) {
    const id = core.cid(o.seq);
    const resting = openById.get(id);
    // Still open: booked unless part of it filled while no runtime ran (looked up for its fee).
    if (resting !== undefined && Number(resting.filledQuantity) <= (bookedAtExchange(o)?.qty ?? 0)) continue;
    const found = await lookUpPastWindow(core, o.seq);
    if (core.finished) return;
    // Never reached the exchange: laid out again once the fills beyond it are booked (`relay`).
    if (!found.found && o.filled === undefined && o.carried === undefined) {
      lost.push(o);
    } else if (!found.found) {
      await sendAgain(core, placedAgain(o, restOf(o)), price);
    } else if (Number(found.order.filledQuantity) > 0 || found.order.status !== 'NEW') {
      filled.push({ order: found.order, seq: o.seq, price: o.price });
    }
  }
  filled.sort((a, b) => a.order.updatedMs - b.order.updatedMs);
  for (const f of filled) await bookOrder(core, f.order, f.seq, f.price);
  // Laid out on every restart: a level an order never reached, or whose answer a fault dropped, is put back
  // from the grid's coin, or a futures grid's position (`relayLost`); a whole grid lays out as it stands.
  if (core.state.status === 'Live' && core.state.pending === null && !core.finished)
    await relay(core, lost, price);
  const held = new Set(core.state.orders.map((o) => core.cid(o.seq)));
  const mine = `${core.cid(0).split('-')[0]}-`;
  for (const o of open) {
    if (!o.clientOrderId.startsWith(mine) || held.has(o.clientOrderId)) continue;
    await ex.cancelOrder(market, symbol, o.clientOrderId).catch((error: unknown) => {
      if (!isExchangeError(error) || error.code !== ErrorCode.cancelRejected) throw error;
    });
  }
  core.finishIfStopped();
}

/**
 * An order of the grid (the market order in flight, a resting order the exchange does not list), looked up
 * by its id until it is found or the look-up was asked after it can no longer arrive (docs/trading-rules.md
 * §3): its call may have been under way when the runtime before this one stopped, and an unanswered order can
 * still reach the exchange within `lateOrderWindowMs` of its call. Sent again after an earlier "no such
 * order", it would be a second order once the first arrived and filled, since Binance accepts a filled
 * order's client order id again. The window counts from the moment the intent was first found in doubt,
 * written into its row (`markIntentInDoubt`), so a runtime stopped again before it ends does not push it.
 */
async function lookUpPastWindow(core: RangeCore, seq: number): Promise<FetchOrderResult> {
  const { market, symbol, botId } = core.id;
  const ex = core.deps.exchange;
  const windowMs = ex.lateOrderWindowMs ?? 0;
  let endedAtMs: number | undefined;
  for (;;) {
    const askedAtMs = core.deps.now();
    const found = await ex.fetchOrder(market, symbol, core.cid(seq));
    if (found.found || windowMs === 0 || core.finished) return found;
    endedAtMs ??= await intentInDoubtSince(core.deps.db, botId, seq, new Date(askedAtMs));
    if (askedAtMs > endedAtMs + windowMs) return found;
    await waitUnlessFinished(core, endedAtMs + windowMs + 1);
    if (core.finished) return found;
  }
}

/** Waits until `untilMs` (`deps.now`), or less once the grid is let go: a stopping worker waits no window out. */
async function waitUnlessFinished(core: RangeCore, untilMs: number): Promise<void> {
  const deadline = Date.now() + untilMs - core.deps.now();
  for (let left = deadline - Date.now(); left > 0 && !core.finished; left = deadline - Date.now())
    await new Promise((resolve) => setTimeout(resolve, Math.min(left, 250)));
}

/**
 * An intent whose order the exchange does not hold, sent again under its own client order id: "maybe sent"
 * first, so that a runtime loading the grid during this call counts the order's window from its own load,
 * not from the moment in doubt that has just passed.
 */
async function sendAgain(core: RangeCore, intent: RangeIntent, price: number): Promise<void> {
  await markIntentResending(core.deps.db, core.id.botId, intent.seq, new Date(core.deps.now()));
  await core.execute(intent, price);
}

/**
 * Orders written but never sent (a crash or a fault's reload between the intent and the request): the grid
 * is laid out again from its coin, a futures grid from its position, booked up to the exchange's positionAmt
 * by the fills just reconciled (`relayLost`, docs/trading-rules.md §2.6 "Live"). A resting order on
 * the wrong side of the level the coin leaves empty is cancelled first (a fill that beat the cancel is
 * booked instead). A missing order the layout keeps is sent again with its own client order id (§3); the
 * others' intents end without an order; the levels left open are placed at once, their intents written first.
 */
async function relay(core: RangeCore, lost: readonly RangeOrder[], price: number): Promise<void> {
  const cancelled: RangeOrder[] = [];
  for (const o of misplacedOrders(core.state, lost)) {
    if (core.finished) return;
    if (await withdraw(core, o)) cancelled.push(o);
  }
  const result = relayLost(core.state, lost, Number(core.rules.stepSize), cancelled);
  if (lost.length === 0 && cancelled.length === 0 && result.state.queue.length === 0) return;
  core.state = result.state;
  core.dirty = true;
  const now = new Date(core.deps.now());
  for (const o of cancelled) await endIntentFailed(core.deps.db, core.id.botId, o.seq, 'cancelled', now);
  for (const o of result.dropped)
    await endIntentFailed(core.deps.db, core.id.botId, o.seq, 'never reached the exchange', now);
  for (const o of result.again) {
    if (core.finished) return;
    await sendAgain(core, placedAgain(o, o.qty), price);
  }
  if (!core.finished && core.state.queue.length > 0) await core.settle(price, core.deps.now());
}

/** Cancels a resting order for the layout; false when the exchange filled some of it first (then booked). */
async function withdraw(core: RangeCore, o: RangeOrder): Promise<boolean> {
  const { market, symbol } = core.id;
  const id = core.cid(o.seq);
  await core.deps.exchange.cancelOrder(market, symbol, id).catch((error: unknown) => {
    if (!isExchangeError(error) || error.code !== ErrorCode.cancelRejected) throw error;
  });
  const found = await core.deps.exchange.fetchOrder(market, symbol, id);
  if (!found.found || Number(found.order.filledQuantity) === 0) return true;
  await bookOrder(core, found.order, o.seq, o.price);
  return false;
}

/** The resting order `o` sent again for `qty` under its own seq, so its own client order id (§3). */
function placedAgain(o: RangeOrder, qty: number): PlaceLimit {
  return {
    type: 'PlaceLimit',
    seq: o.seq,
    level: o.level,
    side: o.side,
    price: String(o.price),
    qty: String(qty),
    ...(o.reduceOnly === undefined ? {} : { reduceOnly: o.reduceOnly }),
  };
}
