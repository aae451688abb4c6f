import {
  applyRangeFill,
  type EngineRules,
  editRange,
  type Fill,
  firstRestingFill,
  type RangeEdit,
  type RangeIntent,
  type RangeOrder,
  type RangeState,
  rangeBand,
  stepRange,
  stopRange,
} from '@gridbot/engine';
import { ErrorCode, isExchangeError, type Order, type PlaceOrderInput } from '@gridbot/exchange';
import { money } from '@gridbot/shared';
import type { BotIdentity, BotRunnerDeps } from './bot-context';
import { clientOrderIdOf } from './client-order-id';
import { type CommandRow, finishCommand, queuedCommands } from './commands.repo';
import { outcomeOf } from './order-outcome';
import { endCancelled, endIntentFailed, openCancels } from './range-intents.repo';
import { partsPast, reachedBy, unbookedPart } from './range-parts';
import {
  haltBot,
  saveCommandApplied,
  saveFill,
  saveStateBatched,
  saveStateWithIntents,
} from './runtime-writes';

/** Events on one line before its end is stepped regardless (a guard, as in the backtest). */
const MAX_EVENTS_PER_LINE = 10_000;
/** Rounds of step and fill at one price (a start, several trailing steps). */
const MAX_ROUNDS_AT_PRICE = 1_000;

/**
 * One running range grid (docs/trading-rules.md §2.6) beside the grid bots' `BotRunner`, under the same
 * supervisor, writes and client order ids. Each tick is the straight line from the last price, walked as the
 * backtest walks it: at each resting order the line reaches, the exchange's fill of that order is looked up by
 * its client order id and booked once (`applyRangeFill`); at each stop, trailing or trigger level the engine is
 * stepped, its intents written before they are sent (§3) and carried out: limit orders placed (reduce-only when
 * they close a futures position), cancels, market orders at the event's level. After a restart the resting
 * orders are matched to the exchange's open orders by client order id (`reconcile`).
 */
export class RangeRunner {
  private queue: Promise<void> = Promise.resolve();
  private state: RangeState;
  private lastPrice: number | null;
  dirty = false;
  finished = false;

  constructor(
    readonly id: BotIdentity,
    state: RangeState,
    readonly rules: EngineRules,
    private readonly deps: BotRunnerDeps,
    lastPrice: number | null = null,
  ) {
    this.state = state;
    this.lastPrice = lastPrice;
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

  /** Range grids book no paper funding yet: the position's funding is the exchange's. */
  async onFunding(): Promise<void> {}

  /** Launch: intents left open by a crash and the resting orders against the exchange's book. */
  reconcileOpenIntents(): Promise<void> {
    return this.serial(() => this.reconcile());
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

  /** Walks the line from the last price to `to` (docs/trading-rules.md §2.6 fill model, as the backtest). */
  private async walk(to: number, timeMs: number): Promise<void> {
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
        if (order !== null && order.price === e && !(await this.bookResting(order, timeMs))) break;
        await this.settle(e, timeMs);
        cur = e;
        if (this.state === s) break;
      }
    }
    if (!this.finished) await this.settle(to, timeMs);
    this.lastPrice = to;
    this.finishIfStopped();
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

  /** Books what more has filled of the orders filled in part that the line from `from` to `to` reaches. */
  private async recheckParts(from: number, to: number, timeMs: number): Promise<void> {
    const lowest = Math.min(from, to);
    const highest = Math.max(from, to);
    for (const o of this.state.orders) {
      if (this.finished || o.filled === undefined) continue;
      if (reachedBy(o, o.side === 'buy' ? lowest : highest)) await this.bookResting(o, timeMs);
    }
  }

  /** Steps the engine at `p` and carries out what it decides, until nothing more happens at this price. */
  private async settle(p: number, timeMs: number): Promise<void> {
    this.lastPrice = p;
    for (let round = 0; round < MAX_ROUNDS_AT_PRICE && !this.finished; round++) {
      const before = this.state;
      const result = stepRange(before, { price: p, timeMs }, this.rules);
      this.state = result.state;
      if (result.intents.length === 0) {
        if (result.state !== before) this.dirty = true;
        return;
      }
      await this.carryOut(result.intents, p);
    }
  }

  /** Writes the state with its intents (before anything is sent, §3), then sends them one by one. */
  private async carryOut(intents: readonly RangeIntent[], p: number): Promise<void> {
    this.dirty = false;
    await saveStateWithIntents(this.deps.writes, this.id.botId, this.state, intents, p);
    for (const intent of intents) {
      if (this.finished) return;
      await this.execute(intent, p);
    }
  }

  private cid(seq: number): string {
    return clientOrderIdOf(this.id.botId, seq);
  }

  private async execute(intent: RangeIntent, p: number): Promise<void> {
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
        ...(intent.type === 'RangeMarketOrder' && intent.reduceOnly ? { reduceOnly: true } : {}),
        ...(intent.type === 'SellLots' && market === 'future' ? { reduceOnly: true } : {}),
      };
    }
    let order: Order;
    try {
      order = await ex.placeOrder(input);
    } catch (error) {
      const reason = isExchangeError(error) ? error.userMessage : String(error);
      if (!isExchangeError(error) || error.kind === 'unknown' || error.kind === 'retryable') throw error;
      await endIntentFailed(this.deps.db, this.id.botId, intent.seq, reason, new Date(this.deps.now()));
      await this.halt(`The grid's order was refused: ${reason}`);
      return;
    }
    // A limit order that crossed the price on arrival filled at once; a market order always does.
    if (order.status !== 'NEW') await this.bookOrder(order, intent.seq, p);
  }

  /** Cancels a resting order; one the exchange no longer holds open may have filled: its fill is booked. */
  private async cancel(cancelSeq: number, orderSeq: number): Promise<void> {
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
    await endCancelled(this.deps.db, this.id.botId, cancelSeq, orderSeq, new Date(this.deps.now()));
  }

  /**
   * Looks the resting `order` up at the exchange and books what filled of it since the last look (all of it,
   * or a part: the order then rests on); false when nothing more has filled.
   */
  private async bookResting(order: RangeOrder, timeMs: number): Promise<boolean> {
    const { market, symbol } = this.id;
    const found = await this.deps.exchange.fetchOrder(market, symbol, this.cid(order.seq));
    if (!found.found || found.order.status === 'NEW') return false;
    return this.bookOrder(found.order, order.seq, order.price, timeMs);
  }

  /**
   * Books an exchange order's fill once (the engine ignores a seq it no longer has); false when it did not
   * apply. A resting order books only what filled beyond its booked part, so each part is booked once.
   */
  private async bookOrder(order: Order, seq: number, p: number, timeMs?: number): Promise<boolean> {
    const resting = this.state.orders.find((o) => o.seq === seq);
    const part = resting === undefined ? order : unbookedPart(order, resting, this.id.baseAsset);
    // Nothing new filled of a resting order: still open, or ended with what was booked.
    if (part === undefined && (order.status === 'NEW' || order.status === 'PARTIALLY_FILLED')) return false;
    const outcome = outcomeOf(part ?? order, seq, this.id.baseAsset, p);
    if (outcome.kind !== 'filled') {
      if (outcome.kind === 'failed')
        await this.halt(`The grid's order ended without a fill: ${outcome.reason}`);
      return false;
    }
    // Booked at the runtime's clock (the tick's time on a line), as the grid bots' fills are.
    const fill: Fill = { ...outcome.fill, timeMs: timeMs ?? this.deps.now() };
    const out = applyRangeFill(this.state, fill);
    if (!out.applied) return false;
    this.state = out.state;
    const whole = !this.state.orders.some((o) => o.seq === seq);
    // The pair's grid profit on the order that closes it: a spot sell, a futures reduce-only order.
    const closes =
      whole &&
      resting !== undefined &&
      (this.id.market === 'spot' ? resting.side === 'sell' : resting.reduceOnly === true);
    // The order's row shows all of it that filled so far, a part booked before included: the exchange's
    // cumulative figures, the fee in USDT the parts' sum (a coin fee valued at the limit price, as the engine).
    const prior = resting?.filled;
    const priorFeeUsdt =
      prior === undefined
        ? 0
        : fill.feeAsset === 'base'
          ? money(prior.fee).times(fill.price)
          : money(prior.fee);
    await saveFill(
      this.deps.writes,
      this.id.botId,
      this.id.userId,
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
      },
      this.state,
      this.lastPrice ?? p,
    );
    this.dirty = false;
    return true;
  }

  /**
   * After a restart or a takeover (docs/trading-rules.md §3): a market order in flight is looked up and booked
   * or sent again with its id; cancels written but not carried out are carried out; each resting order is
   * matched to the exchange's open orders by client order id: filled ones are booked (in the order they
   * filled), missing ones placed again; an open order of this bot the grid no longer holds is cancelled, so a
   * level never holds two orders.
   */
  private async reconcile(): Promise<void> {
    const { market, symbol } = this.id;
    const ex = this.deps.exchange;
    const price = this.lastPrice ?? this.state.stats.startPrice;
    for (const c of await openCancels(this.deps.db, this.id.botId)) await this.cancel(c.seq, c.orderSeq);
    const pending = this.state.pending;
    if (pending !== null) {
      const found = await ex.fetchOrder(market, symbol, this.cid(pending.intent.seq));
      if (found.found) await this.bookOrder(found.order, pending.intent.seq, pending.intent.price);
      else await this.execute(pending.intent, pending.intent.price);
    }
    const open = await ex.openOrders(market, symbol);
    const openById = new Map(open.map((o) => [o.clientOrderId, o]));
    const filled: { order: Order; seq: number; price: number }[] = [];
    for (const o of this.state.orders) {
      const id = this.cid(o.seq);
      const resting = openById.get(id);
      // Still open: booked unless part of it filled while no runtime ran (looked up for its fee).
      if (resting !== undefined && Number(resting.filledQuantity) <= (o.filled?.qty ?? 0)) continue;
      const found = await ex.fetchOrder(market, symbol, id);
      if (!found.found) {
        await this.execute(
          {
            type: 'PlaceLimit',
            seq: o.seq,
            level: o.level,
            side: o.side,
            price: String(o.price),
            qty: String(o.qty),
            ...(o.reduceOnly === undefined ? {} : { reduceOnly: o.reduceOnly }),
          },
          price,
        );
      } else if (Number(found.order.filledQuantity) > 0 || found.order.status !== 'NEW') {
        filled.push({ order: found.order, seq: o.seq, price: o.price });
      }
    }
    filled.sort((a, b) => a.order.updatedMs - b.order.updatedMs);
    for (const f of filled) await this.bookOrder(f.order, f.seq, f.price);
    const held = new Set(this.state.orders.map((o) => this.cid(o.seq)));
    const mine = `${this.cid(0).split('-')[0]}-`;
    for (const o of open) {
      if (!o.clientOrderId.startsWith(mine) || held.has(o.clientOrderId)) continue;
      await ex.cancelOrder(market, symbol, o.clientOrderId).catch((error: unknown) => {
        if (!isExchangeError(error) || error.code !== ErrorCode.cancelRejected) throw error;
      });
    }
    this.finishIfStopped();
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

  private async halt(reason: string): Promise<void> {
    this.deps.log('range bot halted', { botId: this.id.botId, reason });
    await haltBot(this.deps.writes, this.id.botId, reason);
    this.deps.onCommandsSettled?.(this.id.botId);
    this.finish();
  }

  private finishIfStopped(): void {
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
