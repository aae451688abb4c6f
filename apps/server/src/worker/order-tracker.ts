import {
  applyFillDetailed,
  applyIntentDustDetailed,
  applyIntentFailed,
  type Fill,
  type Intent,
} from '@gridbot/engine';
import { type ExchangeError, type FetchOrderResult, isExchangeError, type Order } from '@gridbot/exchange';
import { money, rebuyFailedReason } from '@gridbot/shared';
import { afterPendingIo } from '../lib/after-io';
import { clientOrderIdOf } from '../modules/bots';
import { isLiveVenue } from '../modules/exchange';
import type { BotContext, BotLifecycle } from './bot-context';
import { finishAppliedMissingLots } from './commands.repo';
import {
  type IntentRow,
  markIntentInDoubt,
  markIntentResending,
  markIntentUnknown,
  saveIntentDust,
  saveIntentFailed,
} from './intents.repo';
import { type FeePaid, orderFor, outcomeOf } from './order-outcome';
import { saveFill, saveStateWithIntents } from './runtime-writes';

/** Rejections in a row after which the bot is halted. */
const MAX_FAILURES = 3;
/** Longest wait between two look-ups of an order whose outcome is unknown. */
const MAX_RECONCILE_DELAY_MS = 30_000;

/**
 * Wait before the `attempts`-th look-up of an order whose outcome is unknown: doubling from 0.5 s up to
 * 30 s, with jitter so that bots hit by one outage do not ask all at once (docs/trading-rules.md §3).
 */
export function reconcileDelayMs(attempts: number): number {
  return Math.min(MAX_RECONCILE_DELAY_MS, 250 * 2 ** Math.min(attempts, 10)) * (0.5 + Math.random() / 2);
}

/** What the tracker asks of the exchange follower: the exchange is the authority on positions. */
export interface PositionFollower {
  /** `refusal`: the exchange's words for the refused exit. */
  positionGone(intent: Extract<Intent, { type: 'SellLots' }>, refusal: string): Promise<boolean>;
  checkPosition(): Promise<void>;
}

/**
 * The orders of one bot (docs/trading-rules.md §3): each intent is written before it is sent, sent once, and
 * its outcome booked; an order whose outcome is unknown is asked about by client order id (with backoff)
 * until the exchange answers, never sent blind again. A refused order fails its intent (the bot halts after
 * a few in a row), a sell below the exchange's minimum is left as dust, and an intent that never went out is
 * withdrawn.
 */
export class OrderTracker {
  private failures = 0;
  private readonly retryTimers = new Map<number, NodeJS.Timeout>();
  /**
   * Per intent whose order's outcome is unknown: the time (`deps.now`) from which a look-up that finds no
   * such order is final, because the order can no longer reach the exchange (`Exchange.lateOrderWindowMs`
   * after the call that went unanswered). Before it, "does not exist" only means "not yet".
   */
  private readonly absentAfterMs = new Map<number, number>();

  constructor(
    private readonly ctx: BotContext,
    private readonly lifecycle: BotLifecycle,
    private readonly follower: PositionFollower,
  ) {}

  stopTimers(): void {
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    this.retryTimers.clear();
  }

  /**
   * Startup / takeover: settles every intent left open by a crash (`open`, read with the other bots of the
   * launch) before the bot trades again.
   */
  reconcileOpenIntents(open: readonly IntentRow[]): Promise<void> {
    return this.lifecycle.serial(async () => {
      for (const row of open) {
        // `unknown`: the last call for it ended unanswered at the row's update, and none was made since.
        // `pending`: a call may have been under way when the worker that wrote the row stopped, which is
        // before now, so the order may arrive up to the window from now; written so, once.
        let endedAtMs = row.updatedAt.getTime();
        if (row.status === 'pending') {
          endedAtMs = this.ctx.deps.now();
          await markIntentInDoubt(this.ctx.deps.db, this.ctx.id.botId, row.seq, new Date(endedAtMs));
        }
        this.orderMayArriveLate(row.seq, endedAtMs);
        await this.reconcile(row.payload as unknown as Intent, row.attempts);
      }
    });
  }

  /** An order call for `seq` ended at `endedAtMs` without a clear answer: its order may still arrive. */
  /** The runtime's clock, for the rows this tracker stamps. */
  private now(): Date {
    return new Date(this.ctx.deps.now());
  }

  private orderMayArriveLate(seq: number, endedAtMs = this.ctx.deps.now()): void {
    const windowMs = this.ctx.deps.exchange.lateOrderWindowMs ?? 0;
    if (windowMs > 0) this.absentAfterMs.set(seq, endedAtMs + windowMs);
  }

  /** Writes the state with its intents (before any is sent, docs/trading-rules.md §3), then sends them one by one. */
  async send(intents: readonly Intent[], price: number): Promise<void> {
    if (intents.length === 0) return;
    await saveStateWithIntents(this.ctx.deps.writes, this.ctx.id.botId, this.ctx.state, intents, price);
    this.ctx.dirty = false;
    for (const intent of intents) this.ctx.unsent.add(intent.seq);
    for (const intent of intents) {
      if (!this.ctx.unsent.delete(intent.seq)) continue; // withdrawn by an earlier intent of this batch
      // A bot halted by an earlier intent of this batch sends nothing more: the rest are withdrawn.
      if (this.ctx.finished) await this.withdraw(intent, 'not sent: the bot was halted');
      else await this.execute(intent);
    }
    this.lifecycle.finishIfStopped();
  }

  private async execute(intent: Intent): Promise<void> {
    if (intent.type === 'RecordLiquidation') {
      // No order: the exchange closes a liquidated position itself (docs/trading-rules.md §2.2).
      const fill: Fill = {
        seq: intent.seq,
        side: 'sell',
        price: intent.price,
        qty: intent.qty,
        quote: intent.quote,
        fee: intent.fee ?? 0,
        timeMs: this.ctx.deps.now(),
      };
      await this.applyFill(fill);
      return;
    }
    // Nothing the step allows to sell (a remainder below one step): no order can carry it.
    if (intent.type === 'SellLots' && money(intent.qty).isZero())
      return this.leaveAsDust(intent, 'below one step of the market');
    let order: Order;
    try {
      order = await this.placeNew(intent);
    } catch (error) {
      return this.onOrderError(intent, error, 0);
    }
    // Outside the try: a failure to book what the exchange did (the database went away) is not an order
    // error. It breaks the task, and the bot is loaded again from the database, where the intent is still
    // open, so its order is looked up and booked (docs/trading-rules.md §3).
    await this.settle(intent, order);
  }

  /**
   * A spot sell the exchange refuses for its size (below the minimum quantity or notional) can never go out:
   * it would be refused again on every try. Futures exits are reduce-only and exempt from the minimum
   * notional; a buy refused for its size is an ordinary refusal.
   */
  private belowMinimum(intent: Intent, error: ExchangeError): boolean {
    return intent.type === 'SellLots' && this.ctx.id.market === 'spot' && error.reason === 'below_minimum';
  }

  /**
   * Leaves the sell's lots in the account as the bot's recorded dust (docs/trading-rules.md §3): the bot goes
   * on (or stops, when the sell was its final one) instead of retrying an order the exchange always refuses.
   */
  private async leaveAsDust(intent: Intent, reason: string): Promise<void> {
    const outcome = applyIntentDustDetailed(this.ctx.state, intent.seq, this.ctx.deps.now());
    if (!outcome.applied) return;
    this.ctx.state = outcome.state;
    const pnl = outcome.closed.reduce((sum, lot) => sum.plus(lot.profit), money(0));
    this.ctx.deps.log('sell left as dust', { botId: this.ctx.id.botId, seq: intent.seq, reason });
    await saveIntentDust(
      this.ctx.deps.db,
      this.ctx.id.botId,
      intent.seq,
      `left as dust: ${reason}`,
      this.ctx.state,
      this.ctx.lastPrice,
      pnl.toFixed(8),
      this.now(),
    );
  }

  /**
   * Sends the intent's order. The first buy of a futures position on Binance first sets (and verifies)
   * isolated margin and the bot's leverage, and refuses a hedge-mode account: settings changed on Binance
   * since the start would otherwise apply to the new position.
   */
  private async placeNew(intent: Exclude<Intent, { type: 'RecordLiquidation' }>): Promise<Order> {
    const opening = intent.type === 'MarketBuy' && this.ctx.state.lots.length === 0;
    if (opening && this.ctx.id.market === 'future' && isLiveVenue(this.ctx.deps.exchange.venue))
      await this.ctx.deps.exchange.setLeverage(this.ctx.id.symbol, this.ctx.state.leverage);
    return this.ctx.deps.exchange.placeOrder(
      orderFor(
        intent,
        this.ctx.id.symbol,
        this.ctx.id.market,
        clientOrderIdOf(this.ctx.id.botId, intent.seq),
      ),
    );
  }

  /** Books what the exchange answered for the intent's order: a fill, a refusal, or still open. */
  private async settle(intent: Intent, order: Order): Promise<void> {
    const outcome = outcomeOf(
      order,
      intent.seq,
      this.ctx.id.baseAsset,
      intent.price,
      this.ctx.deps.usdtPriceOf,
    );
    if (outcome.kind === 'filled') {
      this.failures = 0;
      // The order is out and filled: booking it can wait for the I/O already in (other bots' intents written,
      // their orders to send, the next ticks), so a wave of fills does not hold back the next wave's orders.
      await afterPendingIo();
      await this.applyFill(outcome.fill, outcome.feePaid);
      // The exchange is the authority on positions: read it after each futures order (queued after this).
      if (this.ctx.id.market === 'future' && isLiveVenue(this.ctx.deps.exchange.venue))
        void this.follower.checkPosition();
    } else if (outcome.kind === 'failed') {
      await this.fail(intent, outcome.reason);
    } else {
      await markIntentUnknown(
        this.ctx.deps.db,
        this.ctx.id.botId,
        intent.seq,
        'order still open',
        this.now(),
      );
      this.scheduleReconcile(intent, 1);
    }
  }

  /** Books a fill; `feePaid` is the fee as the exchange charged it (USDT when not given). */
  private async applyFill(fill: Fill, feePaid?: FeePaid): Promise<void> {
    const rebuy = this.isRebuy(fill.seq);
    const outcome = applyFillDetailed(this.ctx.state, fill);
    this.ctx.state = outcome.state;
    const pnl =
      outcome.closed.length > 0 ? outcome.closed.reduce((sum, lot) => sum + lot.profit, 0).toFixed(8) : null;
    const grid = outcome.opened?.grid ?? outcome.closed[0]?.grid ?? 1;
    await saveFill(
      this.ctx.deps.writes,
      this.ctx.id.botId,
      this.ctx.id.userId,
      {
        seq: fill.seq,
        side: fill.side,
        grid,
        price: String(fill.price),
        qty: String(fill.qty),
        quote: String(fill.quote),
        // The order book shows fees in USDT: a fee taken from the bought coin is worth fee × price.
        fee: fill.feeAsset === 'base' ? money(fill.fee).times(fill.price).toFixed() : String(fill.fee),
        feeAsset: feePaid?.asset ?? 'USDT',
        feePaid: feePaid?.amount ?? String(fill.fee),
        pnl,
        timeMs: fill.timeMs,
      },
      this.ctx.state,
      this.ctx.lastPrice ?? Number(fill.price),
    );
    if (rebuy) await finishAppliedMissingLots(this.ctx.deps.db, this.ctx.id.botId, this.now());
    // The fill may have booked the sale a stop and sell, or the re-buy a resume, waits for.
    this.ctx.deps.onCommandsSettled?.(this.ctx.id.botId);
  }

  /** Whether `seq` is the re-buy of coins sold outside the platform (its fill tops up the newest lot). */
  private isRebuy(seq: number): boolean {
    const intent = this.ctx.state.pending.find((p) => p.intent.seq === seq)?.intent;
    return intent?.type === 'MarketBuy' && intent.missingQty !== undefined;
  }

  private async fail(intent: Intent, reason: string): Promise<void> {
    const rebuy = this.isRebuy(intent.seq);
    this.ctx.state = applyIntentFailed(this.ctx.state, intent.seq);
    await saveIntentFailed(
      this.ctx.deps.db,
      this.ctx.id.botId,
      intent.seq,
      reason,
      this.ctx.state,
      this.ctx.lastPrice,
      this.now(),
    );
    // The lots still count on coins the account lacks: paused again (the resume waiting for the re-buy
    // fails with the reason), and Resume asks again.
    if (rebuy) return this.lifecycle.halt(rebuyFailedReason(reason));
    this.ctx.deps.onCommandsSettled?.(this.ctx.id.botId);
    this.failures += 1;
    if (this.failures >= MAX_FAILURES) await this.lifecycle.halt(`Orders keep failing: ${reason}`);
  }

  /** An intent written but never sent: undone on the bot and closed as failed, without counting as a failure. */
  async withdraw(intent: Intent, reason: string): Promise<void> {
    if (!this.ctx.state.pending.some((p) => p.intent.seq === intent.seq)) return;
    this.ctx.state = applyIntentFailed(this.ctx.state, intent.seq);
    await saveIntentFailed(
      this.ctx.deps.db,
      this.ctx.id.botId,
      intent.seq,
      reason,
      this.ctx.state,
      this.ctx.lastPrice,
      this.now(),
    );
  }

  /** `orderCall`: false when the failed call was a look-up, which sends no order. */
  private async onOrderError(
    intent: Intent,
    error: unknown,
    attempts: number,
    orderCall = true,
  ): Promise<void> {
    if (isExchangeError(error) && error.reason === 'reduce_only_rejected' && intent.type === 'SellLots') {
      const gone = await this.follower.positionGone(intent, error.userMessage).catch(() => undefined);
      // No answer about the position: ask about the order again later, never halt on a guess.
      if (gone === undefined) {
        await markIntentUnknown(this.ctx.deps.db, this.ctx.id.botId, intent.seq, String(error), this.now());
        return this.scheduleReconcile(intent, attempts + 1);
      }
      if (gone) return;
    }
    if (isExchangeError(error) && error.kind === 'rejected' && this.belowMinimum(intent, error))
      return this.leaveAsDust(intent, error.userMessage);
    if (isExchangeError(error) && error.kind === 'rejected' && error.reason !== 'position_mode')
      return this.fail(intent, error.userMessage);
    // Bad keys, or a hedge-mode account: no order can go out until the user acts, so the bot halts at once.
    if (isExchangeError(error) && (error.kind === 'fatal' || error.reason === 'position_mode')) {
      this.ctx.state = applyIntentFailed(this.ctx.state, intent.seq);
      await saveIntentFailed(
        this.ctx.deps.db,
        this.ctx.id.botId,
        intent.seq,
        error.userMessage,
        this.ctx.state,
        this.ctx.lastPrice,
        this.now(),
      );
      if (error.kind === 'fatal') this.ctx.deps.onAuthError?.(this.ctx.id.userId);
      return this.lifecycle.halt(error.userMessage);
    }
    // Unknown outcome (no answer, reset, 5xx, -1007, rate limit): the order may or may not exist, now or
    // later. Never send again before asking, and keep asking until the exchange answers
    // (docs/trading-rules.md §3).
    if (orderCall) this.orderMayArriveLate(intent.seq);
    const callEndedAt = orderCall ? this.now() : undefined;
    await markIntentUnknown(this.ctx.deps.db, this.ctx.id.botId, intent.seq, String(error), callEndedAt);
    this.scheduleReconcile(intent, attempts + 1);
  }

  /** The next look-up of the intent's order, after the backoff or, when sooner, just past `untilMs`. */
  private scheduleReconcile(intent: Intent, attempts: number, untilMs = Number.POSITIVE_INFINITY): void {
    if (this.ctx.finished) return;
    const backoffMs = (this.ctx.deps.reconcileDelayMs ?? reconcileDelayMs)(attempts);
    const delayMs = Math.min(backoffMs, untilMs + 1 - this.ctx.deps.now());
    clearTimeout(this.retryTimers.get(intent.seq));
    this.retryTimers.set(
      intent.seq,
      setTimeout(() => {
        this.retryTimers.delete(intent.seq);
        void this.lifecycle.serial(() => this.reconcile(intent, attempts));
      }, delayMs),
    );
  }

  /**
   * Asks the exchange about the intent's order: settle what it says, resend only when it has none and none
   * can still arrive. A look-up made before the order's window has passed that finds nothing is asked again
   * with backoff: a resend then would make a second order once the first arrives, since Binance accepts a
   * filled order's client order id again (docs/trading-rules.md §3).
   */
  private async reconcile(intent: Intent, attempts: number): Promise<void> {
    if (this.ctx.finished || !this.ctx.state.pending.some((p) => p.intent.seq === intent.seq)) return;
    if (intent.type === 'RecordLiquidation') return this.execute(intent);
    // The look-up is answered after this moment: it proves the order absent only if asked past the window.
    const askedAtMs = this.ctx.deps.now();
    let found: FetchOrderResult;
    try {
      found = await this.ctx.deps.exchange.fetchOrder(
        this.ctx.id.market,
        this.ctx.id.symbol,
        clientOrderIdOf(this.ctx.id.botId, intent.seq),
      );
    } catch (error) {
      return this.onOrderError(intent, error, attempts, false);
    }
    const absentAfterMs = this.absentAfterMs.get(intent.seq) ?? 0;
    // Not there yet, and it may still arrive: asked again, at the latest once it no longer can.
    if (!found.found && askedAtMs <= absentAfterMs)
      return this.scheduleReconcile(intent, attempts + 1, absentAfterMs);
    this.absentAfterMs.delete(intent.seq);
    let order: Order;
    if (found.found) order = found.order;
    else {
      // A runner let go during the look-up (its worker stopping) sends nothing more: the next one asks again.
      if (this.ctx.finished) return;
      // Written before the order goes out again, like the intent itself (a failed write breaks the task).
      await markIntentResending(this.ctx.deps.db, this.ctx.id.botId, intent.seq, this.now());
      try {
        order = await this.placeNew(intent);
      } catch (error) {
        return this.onOrderError(intent, error, attempts);
      }
    }
    // As in `execute`: a failure to book it breaks the task, never counts as an order error.
    return this.settle(intent, order);
  }
}
