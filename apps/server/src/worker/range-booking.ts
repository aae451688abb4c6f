import { applyRangeFill, type Fill, type RangeOrder, restEnded } from '@gridbot/engine';
import type { Order } from '@gridbot/exchange';
import { money } from '@gridbot/shared';
import { outcomeOf } from './order-outcome';
import type { RangeCore } from './range-core';
import { endIntentFailed, endIntentFilled } from './range-intents.repo';
import { bookedAtExchange, endedByExchange, unbookedPart } from './range-parts';

// A range grid's fills, looked up at the exchange and booked once each, part by part
// (docs/trading-rules.md §2.6 "Live"): the runner's booking, over its `RangeCore`.

/**
 * Looks the resting `order` up at the exchange and books what filled of it since the last look (all of it,
 * or a part: the order then rests on); false when nothing more has filled.
 */
export async function bookResting(core: RangeCore, order: RangeOrder, timeMs: number): Promise<boolean> {
  const { market, symbol } = core.id;
  const found = await core.deps.exchange.fetchOrder(market, symbol, core.cid(order.seq));
  if (!found.found || found.order.status === 'NEW') return false;
  return bookOrder(core, found.order, order.seq, order.price, timeMs);
}

/**
 * Books an exchange order's fill once (the engine ignores a seq it no longer has); false when it did not
 * apply. A resting order books only what filled beyond its booked part, so each part is booked once.
 */
export async function bookOrder(
  core: RangeCore,
  order: Order,
  seq: number,
  p: number,
  timeMs?: number,
): Promise<boolean> {
  const resting = core.state.orders.find((o) => o.seq === seq);
  const part = resting === undefined ? order : unbookedPart(order, resting, core.id.baseAsset);
  if (part === undefined) {
    // Nothing new filled of a resting order: still open, or ended by the exchange with what was booked
    // (its rest rests again; the order's figures are never booked a second time).
    if (resting !== undefined && endedByExchange(order)) await restAgain(core, seq, p);
    return false;
  }
  const booked = await bookPart(core, order, part, seq, resting, p, timeMs);
  if (booked && endedByExchange(order) && core.state.orders.some((o) => o.seq === seq))
    await restAgain(core, seq, p);
  return booked;
}

/**
 * A resting order the exchange ended (cancelled or expired it) before all of it filled: what filled stays
 * booked and its rest is placed again at its level under a new client order id (docs/trading-rules.md §2.6
 * "Live": partial fills keep the order on the book). A rest below the step or the minimum notional is not
 * placed: the order counts as complete with what filled and its answer is placed on the next step; when
 * even that is too small the level stays empty and the log says why; a closing order books its part of the
 * pair's profit on its row. The ended order's intent is done: filled when a part of it was booked, else
 * failed with the exchange's status.
 */
async function restAgain(core: RangeCore, seq: number, p: number): Promise<void> {
  const ended = core.state.orders.find((o) => o.seq === seq);
  const result = restEnded(core.state, seq, core.rules);
  if (ended === undefined || result.state === core.state) return;
  // The ended order's intent and its row change below: what was booked of it is written first, with the
  // state that booked it.
  await core.writeBooked();
  core.state = result.state;
  const now = new Date(core.deps.now());
  if (bookedAtExchange(ended) === undefined)
    await endIntentFailed(core.deps.db, core.id.botId, seq, 'ended by the exchange', now);
  else if (result.pnl === undefined) await endIntentFilled(core.deps.db, core.id.botId, seq, now);
  // A closing order complete with what filled: its part of the pair's profit goes on its row with the state
  // that books it in the grid profit, in one write, so the two agree after a crash too.
  else await core.bookFill({ seq, side: ended.side, pnl: String(result.pnl), onRow: true }, p);
  if (result.note !== undefined)
    core.deps.log('range level left empty', { botId: core.id.botId, reason: result.note });
  if (result.intents.length > 0) await core.carryOut(result.intents, core.lastPrice ?? p);
  else core.dirty = true;
}

/** Books `part`, what is new in the exchange's `order` (all of it when the grid does not rest it). */
async function bookPart(
  core: RangeCore,
  order: Order,
  part: Order,
  seq: number,
  resting: RangeOrder | undefined,
  p: number,
  timeMs: number | undefined,
): Promise<boolean> {
  const outcome = outcomeOf(part, seq, core.id.baseAsset, p, core.deps.usdtPriceOf);
  if (outcome.kind !== 'filled') {
    if (outcome.kind === 'failed')
      await core.halt(`The grid's order ended without a fill: ${outcome.reason}`);
    return false;
  }
  // Booked at the runtime's clock (the tick's time on a line), as the grid bots' fills are.
  const fill: Fill = { ...outcome.fill, timeMs: timeMs ?? core.deps.now() };
  const out = applyRangeFill(core.state, fill);
  if (!out.applied) return false;
  core.state = out.state;
  const whole = !core.state.orders.some((o) => o.seq === seq);
  // The pair's grid profit on the order that closes it: a spot sell, a futures reduce-only order.
  const closes =
    whole &&
    resting !== undefined &&
    (core.id.market === 'spot' ? resting.side === 'sell' : resting.reduceOnly === true);
  // The order's row shows all of it that filled so far, a part booked before included: the exchange's
  // cumulative figures, the fee in USDT the parts' sum (a coin fee valued at the limit price, as the engine).
  // An earlier order at the level that the exchange ended keeps its own row.
  const prior = resting === undefined ? undefined : bookedAtExchange(resting);
  const priorFeeUsdt =
    prior === undefined
      ? 0
      : fill.feeAsset === 'base'
        ? money(prior.fee).times(fill.price)
        : money(prior.fee);
  await core.bookFill(
    {
      seq,
      side: order.side,
      grid: out.level ?? 0,
      price: String(fill.price),
      qty: prior === undefined ? String(fill.qty) : order.filledQuantity,
      quote: prior === undefined ? String(fill.quote) : order.filledQuote,
      fee: prior === undefined ? String(out.feeUsdt) : money(priorFeeUsdt).plus(out.feeUsdt).toFixed(),
      feeAsset: outcome.feePaid.asset,
      feePaid: prior === undefined ? outcome.feePaid.amount : order.fee,
      pnl: closes ? String(out.pnl) : null,
      timeMs: fill.timeMs,
      rests: !whole,
    },
    p,
  );
  return true;
}
