import {
  applyRangeFunding,
  type EngineRules,
  editRange,
  firstRestingFill,
  levelPrice,
  type RangeEdit,
  type RangeIntent,
  type RangeOrder,
  type RangeState,
  rangeBand,
  restEnded,
  startRefusedText,
  stepRange,
  stopRange,
} from '@gridbot/engine';
import { ErrorCode, isExchangeError, type Order, type PlaceOrderInput } from '@gridbot/exchange';
import { clientOrderIdOf } from '../modules/bots';
import type { BotIdentity, BotRunnerDeps } from './bot-context';
import { type CommandRow, finishCommand, queuedCommands } from './commands.repo';
import type { FillRecord, PnlOnRow } from './fills.repo';
import { type DueFunding, FundingBooking, type FundPosition } from './funding-booking';
import { bookOrder, bookResting } from './range-booking';
import type { RangeCore } from './range-core';
import { endCancelled, endIntentFailed } from './range-intents.repo';
import { partsPast, reachedBy } from './range-parts';
import { reconcile } from './range-reconcile';
import {
  haltBot,
  saveCommandApplied,
  saveFillsWithIntents,
  saveStateBatched,
  saveStateWithIntents,
} from './runtime-writes';

/** Events on one line before its end is stepped regardless (a guard, as in the backtest). */
const MAX_EVENTS_PER_LINE = 10_000;
/** Rounds of step and fill at one price (a start, several trailing steps). */
const MAX_ROUNDS_AT_PRICE = 1_000;

/** A futures grid's one-way position: a long pays at a positive rate, a short receives (§2.2, §2.6). */
const fundRange: FundPosition<RangeState> = (state, price, rate) => {
  const { state: next, amount } = applyRangeFunding(state, price, rate);
  return { state: next, qty: Math.abs(state.futures?.pos ?? 0), amount };
};

/**
 * One running range grid (docs/trading-rules.md §2.6) beside the grid bots' `BotRunner`, under the same
 * supervisor, writes and client order ids. Each tick is the straight line from the last price, walked as the
 * backtest walks it: at each resting order the line reaches, the exchange's fill of that order is looked up by
 * its client order id and booked once (`applyRangeFill`); at each stop, trailing or trigger level the engine is
 * stepped, its intents written before they are sent (§3) and carried out: limit orders placed (reduce-only when
 * they close a futures position), cancels, market orders at the event's level. Fills are booked part by part
 * in range-booking.ts; after a restart the resting orders are matched to the exchange's open orders by client
 * order id in range-reconcile.ts (`reconcile`).
 */
export class RangeRunner implements RangeCore {
  private queue: Promise<void> = Promise.resolve();
  state: RangeState;
  lastPrice: number | null;
  private readonly funding: FundingBooking<RangeState>;
  dirty = false;
  finished = false;
  /** Post-only refusals in a row (`wouldTake`): a venue that keeps refusing GTC orders stops the bot. */
  private refusedToTake = 0;
  /**
   * Fills booked on the line being walked and not yet written, one per order (a later part of an order holds
   * all of it that filled). The state holds them: its next write carries them, so the answer's intent and the
   * fill it answers commit together; the line's end writes what is left.
   */
  private unwritten: (FillRecord | PnlOnRow)[] = [];
  /** The price the last of them was booked at: a stop's sell, the price the grid stopped at. */
  private bookedAt: number | undefined;
  /** While a tick's line is walked: fills wait for the next write of the state (`bookFill`). */
  private walking = false;

  constructor(
    readonly id: BotIdentity,
    state: RangeState,
    readonly rules: EngineRules,
    readonly deps: BotRunnerDeps,
    lastPrice: number | null = null,
  ) {
    this.state = state;
    this.lastPrice = lastPrice;
    const runner = this;
    this.funding = new FundingBooking(
      {
        id,
        deps,
        get finished() {
          return runner.finished;
        },
        get lastPrice() {
          return runner.lastPrice;
        },
        get state() {
          return runner.state;
        },
        set state(next: RangeState) {
          runner.state = next;
        },
      },
      this,
      fundRange,
    );
  }

  get currentState(): RangeState {
    return this.state;
  }

  /** Runs `fn` after everything queued before it; a failure reloads the bot from the database. */
  serial(fn: () => Promise<void>): Promise<void> {
    const next = this.queue.then(fn).catch((error: unknown) => this.broken(error));
    this.queue = next;
    return next;
  }

  private broken(error: unknown): void {
    this.deps.log('range bot task failed; reloading the bot from the database', {
      botId: this.id.botId,
      err: String(error),
    });
    if (this.finished) return;
    this.finished = true;
    this.deps.onBroken(this.id.botId);
  }

  /** A tick: nothing to do while the line stays inside the grid's band (nearly every tick). */
  onTick(price: number, timeMs: number): Promise<void> | undefined {
    if (this.finished) return undefined;
    const from = this.lastPrice;
    const { lo, hi } = this.state.band;
    if (from !== null && from > lo && from < hi && price > lo && price < hi) {
      this.lastPrice = price;
      return undefined;
    }
    return this.serial(async () => {
      if (!this.finished) await this.walk(price, timeMs);
    });
  }

  /**
   * Paper futures: the funding times the feed passed, each with its rate, booked on the grid's position once
   * each, as the grid bots book theirs (`FundingBooking`); `settledMs` the funding time then settled.
   */
  onFunding(due: readonly DueFunding[], price: number, settledMs: number): Promise<void> {
    return this.funding.onFunding(due, price, settledMs);
  }

  /** Launch: intents left open by a crash and the resting orders against the exchange's book. */
  reconcileOpenIntents(): Promise<void> {
    return this.serial(() => reconcile(this));
  }

  /** The trader's commands: stop, stop and sell, edit of the stops and trailing. */
  runCommands(loaded?: readonly CommandRow[]): Promise<void> {
    return this.serial(async () => {
      for (const command of loaded ?? (await queuedCommands(this.deps.db, this.id.botId))) {
        if (this.finished) break;
        await this.applyCommand(command);
      }
      this.deps.onCommandsSettled?.(this.id.botId);
      this.finishIfStopped();
    });
  }

  flush(): Promise<void> {
    return this.serial(async () => {
      if (!this.dirty || this.finished) return;
      this.dirty = false;
      await saveStateBatched(this.deps.writes, this.id.botId, this.state, this.lastPrice);
    });
  }

  stopTimers(): void {}

  haltWith(reason: string): Promise<void> {
    return this.halt(reason);
  }

  /**
   * Walks the line from the last price to `to` (docs/trading-rules.md §2.6 fill model, as the backtest). The
   * fills it books are written with the intents of their answers (`bookFill`), and at the latest at its end.
   */
  private async walk(to: number, timeMs: number): Promise<void> {
    this.walking = true;
    try {
      await this.walkLine(to, timeMs);
    } finally {
      this.walking = false;
    }
    this.lastPrice = to;
    await this.writeBooked();
    this.finishIfStopped();
  }

  private async walkLine(to: number, timeMs: number): Promise<void> {
    let cur = this.lastPrice;
    await this.recheckParts(cur ?? to, to, timeMs);
    if (cur !== null && cur !== to) {
      const up = to > cur;
      for (let k = 0; k < MAX_EVENTS_PER_LINE && !this.finished; k++) {
        const s = this.state;
        const { lo, hi, orders } = this.bandFrom(s, cur);
        if (cur > lo && cur < hi && to > lo && to < hi) break;
        const e = up ? hi : lo;
        if (up ? !(e >= cur && e <= to) : !(e <= cur && e >= to)) break;
        const order: RangeOrder | null = s.pending === null ? firstRestingFill(orders, cur, to) : null;
        // The exchange has not filled it (yet): the line goes on from the tick's price.
        if (order !== null && order.price === e && !(await bookResting(this, order, timeMs))) break;
        await this.settle(e, timeMs);
        cur = e;
        if (this.state === s) break;
      }
    }
    if (!this.finished) await this.settle(to, timeMs);
  }

  /**
   * The band and the resting orders a line from `cur` can reach. A live order filled in part stays on the book
   * (§2.6) while the price may already stand past it: it is left out here, so the line goes on to the orders
   * beyond it, and its rest is looked up on each tick instead (`recheckParts`).
   */
  private bandFrom(s: RangeState, cur: number): { lo: number; hi: number; orders: readonly RangeOrder[] } {
    const passed = partsPast(s.orders, cur);
    if (passed.length === 0) return { ...s.band, orders: s.orders };
    const orders = s.orders.filter((o) => !passed.includes(o));
    return { ...rangeBand({ ...s, orders }), orders };
  }

  /**
   * Books what more has filled of the orders filled in part that the line from `from` to `to` reaches, and of
   * the orders the price already stands past at `from`: a line that reached an order the exchange had not
   * filled yet (its fill not visible yet, or behind others at that price) went on without it, and the exchange
   * may fill it at any moment after. Such an order is looked up on every tick while the price stands past it,
   * before the line books anything beyond, so the grid answers fills in the order the price made them and
   * never finds the level its answer belongs on taken by an order placed meanwhile. Sells from the lowest,
   * buys from the highest: the order a line reaches them in.
   */
  private async recheckParts(from: number, to: number, timeMs: number): Promise<void> {
    const lowest = Math.min(from, to);
    const highest = Math.max(from, to);
    const due = this.state.orders.filter((o) =>
      o.filled === undefined ? reachedBy(o, from) : reachedBy(o, o.side === 'buy' ? lowest : highest),
    );
    const sells = due.filter((o) => o.side === 'sell').sort((a, b) => a.price - b.price);
    const buys = due.filter((o) => o.side === 'buy').sort((a, b) => b.price - a.price);
    for (const o of [...sells, ...buys]) {
      if (this.finished) return;
      await bookResting(this, o, timeMs);
    }
  }

  /** Steps the engine at `p` and carries out what it decides, until nothing more happens at this price. */
  async settle(p: number, timeMs: number): Promise<void> {
    this.lastPrice = p;
    for (let round = 0; round < MAX_ROUNDS_AT_PRICE && !this.finished; round++) {
      await this.clearAnswerLevels(timeMs);
      if (this.finished) return;
      const before = this.state;
      const held = before.queue.filter((q) => levelPrice(before.spec, q.level) === p);
      const stepped =
        held.length === 0 ? before : { ...before, queue: before.queue.filter((q) => !held.includes(q)) };
      const result = stepRange(stepped, { price: p, timeMs }, this.rules);
      if (result.refused !== undefined) {
        await this.halt(startRefusedText(p, result.refused));
        return;
      }
      this.state = held.length === 0 ? result.state : this.withHeld(result.state, held);
      if (result.intents.length === 0) {
        if (result.state !== stepped) this.dirty = true;
        return;
      }
      await this.carryOut(result.intents, p);
    }
  }

  /**
   * An order due on the level the price stands on (the buy or sell a trailing step places at the grid's new
   * edge, docs/trading-rules.md §2.6) rests there and fills when the path goes on through its level, as a
   * maker (§2.6 fill model). Sent now, it would cross on arrival and fill at once as a taker, closing what
   * the trailing step just opened: it stays due until a tick leaves its level, then goes out as any other
   * (crossing at once if the price went on through it). A stop ends it with the rest.
   */
  private withHeld(state: RangeState, held: RangeState['queue']): RangeState {
    if (state.status !== 'Live') return state;
    const next = { ...state, queue: [...state.queue, ...held] };
    return { ...next, band: rangeBand(next) };
  }

  /**
   * An answer due on a level that holds an order of the other side: the price passed that order to make the
   * fill it answers (a sell below the buy's answer, a buy above the sell's), so the exchange may have filled
   * it without the grid booking it yet (an order that crossed the price on arrival, a fill not visible on the
   * last look). It is looked up and its fill booked first, so the answer finds its level free; still open, the
   * level keeps it and the answer waits in the queue, looked up again on the next tick (§2.6: never two orders
   * on one level).
   */
  private async clearAnswerLevels(timeMs: number): Promise<void> {
    for (const q of this.state.queue) {
      const held = this.state.orders.find((o) => o.level === q.level && o.side !== q.side);
      if (held !== undefined && !this.finished) await bookResting(this, held, timeMs);
    }
  }

  /**
   * Writes the state with its intents (before anything is sent, §3), and the fills it books that are not
   * written yet in the same transaction, then sends them one by one.
   */
  async carryOut(intents: readonly RangeIntent[], p: number): Promise<void> {
    this.dirty = false;
    const fills = this.unwritten;
    this.unwritten = [];
    if (fills.length > 0)
      await saveFillsWithIntents(
        this.deps.writes,
        this.id.botId,
        this.id.userId,
        fills,
        this.state,
        intents,
        p,
      );
    else await saveStateWithIntents(this.deps.writes, this.id.botId, this.state, intents, p);
    for (const intent of intents) {
      if (this.finished) return;
      await this.execute(intent, p);
    }
  }

  cid(seq: number): string {
    return clientOrderIdOf(this.id.botId, seq);
  }

  async bookFill(fill: FillRecord | PnlOnRow, p: number): Promise<void> {
    // A pnl goes on a row the statement must find written: the row's fill is written first.
    if ('onRow' in fill) await this.writeBooked();
    this.unwritten = [...this.unwritten.filter((f) => f.seq !== fill.seq), fill];
    this.bookedAt = this.lastPrice ?? p;
    if (!this.walking) await this.writeBooked();
  }

  async writeBooked(): Promise<void> {
    if (this.unwritten.length === 0) return;
    const fills = this.unwritten;
    this.unwritten = [];
    const price = this.bookedAt ?? this.lastPrice ?? this.state.stats.startPrice;
    await saveFillsWithIntents(this.deps.writes, this.id.botId, this.id.userId, fills, this.state, [], price);
    this.dirty = false;
  }

  async execute(intent: RangeIntent, p: number): Promise<void> {
    const { market, symbol } = this.id;
    const ex = this.deps.exchange;
    if (intent.type === 'CancelOrder') {
      await this.cancel(intent.seq, intent.orderSeq);
      return;
    }
    let input: PlaceOrderInput;
    if (intent.type === 'PlaceLimit') {
      input = {
        market,
        symbol,
        side: intent.side,
        type: 'limit',
        clientOrderId: this.cid(intent.seq),
        quantity: intent.qty,
        price: intent.price,
        // GTC, never post-only (§2.6 "Live"): see `wouldTake`.
        postOnly: false,
        ...(market === 'future' ? { reduceOnly: intent.reduceOnly === true } : {}),
      };
    } else {
      const side = intent.type === 'MarketBuy' ? 'buy' : intent.type === 'SellLots' ? 'sell' : intent.side;
      input = {
        market,
        symbol,
        side,
        type: 'market',
        clientOrderId: this.cid(intent.seq),
        quantity: intent.qty,
        // The paper exchange fills it at the level that set it off, as the backtest (§2.5).
        eventPrice: String(intent.price),
        // A futures grid's market order says whether it closes (stop, the answer to a fill) or opens (a short's
        // start, a trailing sell of a neutral grid): sent as it says (§2.6).
        ...(intent.type === 'RangeMarketOrder' && market === 'future'
          ? { reduceOnly: intent.reduceOnly }
          : {}),
        ...(intent.type === 'SellLots' && market === 'future' ? { reduceOnly: true } : {}),
      };
    }
    let order: Order;
    try {
      order = await ex.placeOrder(input);
    } catch (error) {
      const reason = isExchangeError(error) ? error.userMessage : String(error);
      if (!isExchangeError(error) || error.kind === 'unknown' || error.kind === 'retryable') throw error;
      if (intent.type === 'PlaceLimit' && error.reason === 'would_take' && this.refusedToTake < 3) {
        this.refusedToTake += 1;
        await this.wouldTake(intent.seq, reason, p);
        return;
      }
      await this.writeBooked();
      await endIntentFailed(this.deps.db, this.id.botId, intent.seq, reason, new Date(this.deps.now()));
      await this.halt(`The grid's order was refused: ${reason}`);
      return;
    }
    this.refusedToTake = 0;
    // A limit order that crossed the price on arrival filled at once; a market order always does.
    if (order.status !== 'NEW') await bookOrder(this, order, intent.seq, p);
  }

  /**
   * A grid order refused because it would trade at once as a taker (a post-only refusal: spot -2010 "Order
   * would immediately match and take.", futures GTX -5022). The grid sends its orders as LIMIT GTC (§2.6
   * "Live"), never post-only: an order whose level the price has already passed is meant to fill at once, and
   * that fill is booked and answered like any other. So the refusal is not a reason to stop the bot; nothing
   * was placed (Binance records no such order), the intent ends failed with the exchange's words, and the
   * level is placed again at once under the next client order id as a plain GTC order (`restEnded`), which
   * fills or rests as §2.6 says. Halting would leave the level empty; waiting for a later tick could leave it
   * empty for as long as the price stays past it.
   */
  private async wouldTake(seq: number, reason: string, p: number): Promise<void> {
    await this.writeBooked();
    await endIntentFailed(this.deps.db, this.id.botId, seq, reason, new Date(this.deps.now()));
    const result = restEnded(this.state, seq, this.rules);
    if (result.intents.length === 0) return;
    this.state = result.state;
    await this.carryOut(result.intents, p);
  }

  /** Cancels a resting order; one the exchange no longer holds open may have filled: its fill is booked. */
  async cancel(cancelSeq: number, orderSeq: number): Promise<void> {
    const { market, symbol } = this.id;
    try {
      await this.deps.exchange.cancelOrder(market, symbol, this.cid(orderSeq));
    } catch (error) {
      if (!isExchangeError(error) || error.code !== ErrorCode.cancelRejected) throw error;
      const found = await this.deps.exchange.fetchOrder(market, symbol, this.cid(orderSeq));
      // Filled before the cancel reached it: the engine already let the order go, so the fill is recorded in
      // the bot's order book and logged (its coin or USDT stays in the account).
      if (found.found && Number(found.order.filledQuantity) > 0)
        this.deps.log('a cancelled range order had filled', {
          botId: this.id.botId,
          clientOrderId: found.order.clientOrderId,
        });
    }
    await this.writeBooked();
    await endCancelled(this.deps.db, this.id.botId, cancelSeq, orderSeq, new Date(this.deps.now()));
  }

  private async applyCommand(command: CommandRow): Promise<void> {
    const payload = command.payload as { edit?: RangeEdit };
    try {
      if (command.type === 'stop' || command.type === 'stop_sell') {
        const p = this.lastPrice ?? this.state.stats.startPrice;
        const result = stopRange(this.state, p, command.type === 'stop_sell', this.rules);
        this.state = result.state;
        if (result.intents.length > 0) await this.carryOut(result.intents, p);
      } else if (command.type === 'grid_edit' && payload.edit) {
        this.state = editRange(this.state, payload.edit);
      } else {
        throw new Error(`a range grid has no command ${command.type}`);
      }
      await saveCommandApplied(
        this.deps.writes,
        this.id.botId,
        command.id,
        this.state,
        this.lastPrice,
        false,
      );
    } catch (error) {
      if (this.finished) return;
      await finishCommand(this.deps.db, command.id, new Date(this.deps.now()), String(error));
    }
  }

  async halt(reason: string): Promise<void> {
    await this.writeBooked();
    this.deps.log('range bot halted', { botId: this.id.botId, reason });
    await haltBot(this.deps.writes, this.id.botId, reason);
    this.deps.onCommandsSettled?.(this.id.botId);
    this.finish();
  }

  finishIfStopped(): void {
    if (this.state.status === 'Stopped' && this.state.pending === null) this.finish();
  }

  private finish(): void {
    if (this.finished) return;
    // A stop that sent nothing (nothing to cancel or sell) moved the state without a write: it is written last.
    if (this.dirty) {
      this.dirty = false;
      const { state, lastPrice } = this;
      void this.serial(() => saveStateBatched(this.deps.writes, this.id.botId, state, lastPrice));
    }
    this.finished = true;
    this.deps.onFinished(this.id.botId);
  }
}
