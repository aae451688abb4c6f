import type { Db } from '@gridbot/db';
import {
  applyFillDetailed,
  applyFunding,
  applyIntentDustDetailed,
  applyIntentFailed,
  compileRules,
  dropMissingLots,
  type EngineRules,
  type EngineState,
  type Fill,
  fundingPayment,
  type Intent,
  liquidatedByExchange,
  rebuyMissing,
  step,
} from '@gridbot/engine';
import {
  type Exchange,
  type ExchangeError,
  type ForcedClose,
  isExchangeError,
  type MarketKind,
  type Order,
} from '@gridbot/exchange';
import {
  type Money,
  missingCoinsReason,
  missingCoinsUnsettled,
  money,
  rebuyFailedReason,
} from '@gridbot/shared';
import { botCommandSchema } from '../modules/bots/bot-command';
import { applyCommand } from './bot-commands';
import { saveState } from './bot-state.repo';
import { isStopping } from './bot-status';
import { clientOrderIdOf } from './client-order-id';
import { type CommandRow, finishAppliedMissingLots, finishCommand, queuedCommands } from './commands.repo';
import { bookedFunding, saveFundedThrough } from './funding.repo';
import { type IntentRow, markIntentUnknown, saveIntentDust, saveIntentFailed } from './intents.repo';
import { type FeePaid, orderFor, outcomeOf, type UsdtPriceOf } from './order-outcome';
import {
  haltBot,
  type RuntimeWrites,
  saveCommandApplied,
  saveFill,
  saveFunding,
  saveStateBatched,
  saveStateWithIntents,
} from './runtime-writes';

export interface BotRunnerDeps {
  db: Db;
  /** The process's group commits of bot writes (`createRuntimeWrites`), shared with the other runners. */
  writes: RuntimeWrites;
  exchange: Exchange;
  now: () => number;
  log: (message: string, extra?: Record<string, unknown>) => void;
  /** Called once the bot has stopped for good (Stopped or halted): the supervisor lets it go. */
  onFinished: (botId: string) => void;
  /**
   * Called when a task failed half-way (e.g. the database went away): the in-memory state may now be ahead of
   * the database, so the supervisor drops this runner and loads the bot again from the database.
   */
  onBroken: (botId: string) => void;
  /** USDT prices of coins, to value a fee paid in a third coin (BNB on Binance). */
  usdtPriceOf?: UsdtPriceOf;
  /** An order was refused for the key (bad key, IP or permissions): its rights are read again. */
  onAuthError?: (userId: string) => void;
  /** Paper futures: moves a booked funding payment in the account's futures wallet (`refId` names it). */
  payFunding?: (userId: string, amount: string, refId: string) => Promise<unknown>;
  /** Commands of the bot may have ended (applied, done, failed): the API waiting for one reads it now. */
  onCommandsSettled?: (botId: string) => void;
  /** The exchange's rules change while the bot runs (Binance's exchangeInfo): take them again hourly. */
  liveRules?: boolean;
  /**
   * Wait before the `attempts`-th look-up of an order whose outcome is unknown. Default
   * `reconcileDelayMs`; tests that drive many unknown outcomes pass a shorter one.
   */
  reconcileDelayMs?: (attempts: number) => number;
}

/** A funding time that came due and its rate, undefined when the feed has none for it. */
export interface DueFunding {
  fundingTimeMs: number;
  rate: number | undefined;
}

export interface BotIdentity {
  botId: string;
  userId: string;
  symbol: string;
  market: MarketKind;
  baseAsset: string;
}

/** Rejections in a row after which the bot is halted. */
const MAX_FAILURES = 3;
/** How often a Binance futures bot compares its lots with the exchange's position. */
const POSITION_CHECK_MS = 60_000;
/** Force orders are read from a little before the bot's oldest lot, so clock skew never hides one. */
const FORCE_ORDER_SLACK_MS = 60_000;
/** How often a Binance bot takes the exchange's rules again (the adapter re-reads exchangeInfo daily). */
const RULES_REFRESH_MS = 60 * 60_000;
/** Longest wait between two look-ups of an order whose outcome is unknown. */
const MAX_RECONCILE_DELAY_MS = 30_000;

/**
 * Wait before the `attempts`-th look-up of an order whose outcome is unknown: doubling from 0.5 s up to
 * 30 s, with jitter so that bots hit by one outage do not ask all at once (docs/trading-rules.md §3).
 */
export function reconcileDelayMs(attempts: number): number {
  return Math.min(MAX_RECONCILE_DELAY_MS, 250 * 2 ** Math.min(attempts, 10)) * (0.5 + Math.random() / 2);
}

/**
 * One running bot: ticks in, engine decisions, orders out, fills back (docs/trading-rules.md §3). Every change of the bot
 * runs one after another on its own queue, so a tick, a fill and a user's command never interleave.
 * State is written with each intent (before sending) and each fill; in between it lives here and is
 * flushed by the supervisor.
 */
export class BotRunner {
  private queue: Promise<void> = Promise.resolve();
  private failures = 0;
  private lastPrice: number | null;
  private readonly retryTimers = new Map<number, NodeJS.Timeout>();
  private positionTimer: NodeJS.Timeout | undefined;
  private rulesTimer: NodeJS.Timeout | undefined;
  /** Intents of the batch being sent that have not gone out yet. */
  private readonly unsent = new Set<number>();
  private followingExchange = false;
  /** Tasks queued or running on `queue`. */
  private tasks = 0;
  dirty = false;
  finished = false;

  constructor(
    readonly id: BotIdentity,
    private state: EngineState,
    private rules: EngineRules,
    private readonly deps: BotRunnerDeps,
    /** The feed's last price when the runner starts, so a command can trade before the first tick. */
    lastPrice: number | null = null,
  ) {
    this.lastPrice = lastPrice;
    if (id.market === 'future' && deps.exchange.venue === 'binance') {
      this.positionTimer = setInterval(() => void this.checkPosition(), POSITION_CHECK_MS);
      this.positionTimer.unref();
    }
    if (id.market === 'spot' && deps.liveRules) {
      this.positionTimer = setInterval(() => void this.checkHoldings(), POSITION_CHECK_MS);
      this.positionTimer.unref();
    }
    if (deps.liveRules) {
      this.rulesTimer = setInterval(() => void this.refreshRules(), RULES_REFRESH_MS);
      this.rulesTimer.unref();
    }
  }

  get currentState(): EngineState {
    return this.state;
  }

  /** Runs `fn` after everything queued before it; errors are logged, never thrown into the feed. */
  serial(fn: () => Promise<void>): Promise<void> {
    this.tasks += 1;
    const next = this.queue
      .then(fn)
      .catch((error: unknown) => this.broken(error))
      .then(() => {
        this.tasks -= 1;
      });
    this.queue = next;
    return next;
  }

  /** A task failed half-way: the in-memory state may be ahead of the database, so the bot is loaded again. */
  private broken(error: unknown): void {
    this.deps.log('bot task failed; reloading the bot from the database', {
      botId: this.id.botId,
      err: String(error),
    });
    if (this.finished) return;
    this.finished = true;
    this.stopTimers();
    this.deps.onBroken(this.id.botId);
  }

  /**
   * One tick (the feed coalesces: while this runs only the latest price waits). With nothing queued, the
   * step runs at once and a tick that sends nothing (nearly all of them) ends here without a task: ten
   * thousand bots take ten thousand ticks a second, and a promise chain for each was a good part of a
   * worker's time. A tick that trades queues its write and orders like any other task.
   */
  onTick(price: number, timeMs: number): Promise<void> | undefined {
    if (this.finished) return undefined;
    if (this.tasks > 0) {
      return this.serial(async () => {
        if (this.finished) return;
        this.lastPrice = price;
        await this.stepAndExecute(price, timeMs);
      });
    }
    this.lastPrice = price;
    let intents: readonly Intent[];
    try {
      intents = this.advance(price, timeMs);
    } catch (error) {
      this.broken(error);
      return undefined;
    }
    if (intents.length === 0) return undefined;
    return this.serial(async () => {
      if (this.finished) return;
      await this.send(intents, price);
    });
  }

  /**
   * Funding times the paper futures bot's feed passed, oldest first, each with its rate (undefined: the feed
   * has none, nothing is due), and `settledMs`, the funding time the bot has settled once they are booked
   * (docs/trading-rules.md §2.2). At each, an open position pays (rate > 0) or receives its notional at
   * `price` × `rate`, booked once on the bot and as an Order Book row.
   */
  onFunding(due: readonly DueFunding[], price: number, settledMs: number): Promise<void> {
    return this.serial(async () => {
      if (this.finished || this.id.market !== 'future') return;
      for (const { fundingTimeMs, rate } of due) {
        if (rate !== undefined) await this.bookFunding(fundingTimeMs, rate, price);
      }
      // After the bookings: a crash in between leaves times due again, which their keys book only once.
      await saveFundedThrough(this.deps.db, this.id.botId, settledMs);
    });
  }

  private async bookFunding(fundingTimeMs: number, rate: number, price: number): Promise<void> {
    const qty = this.state.account.posQty ?? this.state.account.openQty;
    const amount = fundingPayment(qty, price, rate);
    if (amount === 0) return;
    const timeMs = this.deps.now();
    const next = applyFunding(this.state, amount, timeMs);
    const funding = { fundingTimeMs, timeMs, price, qty, amount };
    const lastPrice = this.lastPrice ?? price;
    const refId = `funding-${this.id.botId}-${fundingTimeMs}`;
    if (!(await saveFunding(this.deps.writes, this.id.botId, this.id.userId, funding, next, lastPrice))) {
      // Booked already, and due again only when a crash came before the bot settled it, perhaps before the
      // wallet paid it: the booked amount is paid again, which moves the wallet once (a once-only payment).
      const booked =
        this.deps.payFunding && (await bookedFunding(this.deps.db, this.id.botId, fundingTimeMs));
      if (booked) await this.deps.payFunding?.(this.id.userId, booked, refId);
      return;
    }
    this.state = next;
    // After the bot's row: a crash in between leaves the payment to the next run of the bot (above).
    await this.deps.payFunding?.(this.id.userId, String(amount), refId);
  }

  /**
   * Applies the bot's queued commands (stop, stop and sell, edits) in order: `loaded` when the caller just
   * read them (a batch of launches), else read here. A stop and sell is done only once its sale is booked
   * (docs/trading-rules.md §3): until then it stays `applied`, and the write that books the sale ends it.
   */
  runCommands(loaded?: readonly CommandRow[]): Promise<void> {
    return this.serial(async () => {
      for (const command of loaded ?? (await queuedCommands(this.deps.db, this.id.botId))) {
        if (command.type === 'missing_lots') {
          await this.resolveMissingLots(command);
          continue;
        }
        try {
          this.state = applyCommand(this.state, command);
          const awaitsSale = command.type === 'stop_sell' && isStopping(this.state);
          await saveCommandApplied(
            this.deps.writes,
            this.id.botId,
            command.id,
            this.state,
            this.lastPrice,
            awaitsSale,
          );
        } catch (error) {
          await finishCommand(this.deps.db, command.id, String(error));
          continue;
        }
        // Stop-and-sell issues its sell on the next step: take it now at the last price.
        if (this.lastPrice !== null && !this.finished)
          await this.stepAndExecute(this.lastPrice, this.deps.now());
      }
      this.finishIfStopped();
      this.deps.onCommandsSettled?.(this.id.botId);
    });
  }

  /**
   * Startup / takeover: settles every intent left open by a crash (`open`, read with the other bots of the
   * launch) before the bot trades again.
   */
  reconcileOpenIntents(open: readonly IntentRow[]): Promise<void> {
    return this.serial(async () => {
      for (const row of open) {
        await this.reconcile(row.payload as unknown as Intent, row.attempts);
      }
    });
  }

  /** Writes the in-memory state when it moved without an order (trailing, statistics). */
  flush(): Promise<void> {
    return this.serial(async () => {
      if (!this.dirty || this.finished) return;
      this.dirty = false;
      await saveStateBatched(this.deps.writes, this.id.botId, this.state, this.lastPrice);
    });
  }

  stopTimers(): void {
    clearInterval(this.positionTimer);
    clearInterval(this.rulesTimer);
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    this.retryTimers.clear();
  }

  private async stepAndExecute(price: number, timeMs: number): Promise<void> {
    await this.send(this.advance(price, timeMs), price);
  }

  /** Steps the engine on a price; answers the intents to write and send (none on most ticks). */
  private advance(price: number, timeMs: number): readonly Intent[] {
    const result = step(this.state, { price, timeMs }, this.rules);
    // A quiet tick answers the very same state: nothing to flush.
    const moved = result.state !== this.state;
    this.state = result.state;
    if (result.intents.length === 0) {
      if (moved) this.dirty = true;
      this.finishIfStopped();
    }
    return result.intents;
  }

  /** Writes the state with its intents (before any is sent, docs/trading-rules.md §3), then sends them one by one. */
  private async send(intents: readonly Intent[], price: number): Promise<void> {
    if (intents.length === 0) return;
    await saveStateWithIntents(this.deps.writes, this.id.botId, this.state, intents, price);
    this.dirty = false;
    for (const intent of intents) this.unsent.add(intent.seq);
    for (const intent of intents) {
      if (!this.unsent.delete(intent.seq)) continue; // withdrawn by an earlier intent of this batch
      // A bot halted by an earlier intent of this batch sends nothing more: the rest are withdrawn.
      if (this.finished) await this.withdraw(intent, 'not sent: the bot was halted');
      else await this.execute(intent);
    }
    this.finishIfStopped();
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
        timeMs: this.deps.now(),
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
    return intent.type === 'SellLots' && this.id.market === 'spot' && error.reason === 'below_minimum';
  }

  /**
   * Leaves the sell's lots in the account as the bot's recorded dust (docs/trading-rules.md §3): the bot goes
   * on (or stops, when the sell was its final one) instead of retrying an order the exchange always refuses.
   */
  private async leaveAsDust(intent: Intent, reason: string): Promise<void> {
    const outcome = applyIntentDustDetailed(this.state, intent.seq, this.deps.now());
    if (!outcome.applied) return;
    this.state = outcome.state;
    const pnl = outcome.closed.reduce((sum, lot) => sum.plus(lot.profit), money(0));
    this.deps.log('sell left as dust', { botId: this.id.botId, seq: intent.seq, reason });
    await saveIntentDust(
      this.deps.db,
      this.id.botId,
      intent.seq,
      `left as dust: ${reason}`,
      this.state,
      this.lastPrice,
      pnl.toFixed(8),
    );
  }

  /**
   * Sends the intent's order. The first buy of a futures position on Binance first sets (and verifies)
   * isolated margin and the bot's leverage, and refuses a hedge-mode account: settings changed on Binance
   * since the start would otherwise apply to the new position.
   */
  private async placeNew(intent: Exclude<Intent, { type: 'RecordLiquidation' }>): Promise<Order> {
    const opening = intent.type === 'MarketBuy' && this.state.lots.length === 0;
    if (opening && this.id.market === 'future' && this.deps.exchange.venue === 'binance')
      await this.deps.exchange.setLeverage(this.id.symbol, this.state.leverage);
    return this.deps.exchange.placeOrder(
      orderFor(intent, this.id.symbol, this.id.market, clientOrderIdOf(this.id.botId, intent.seq)),
    );
  }

  /** Books what the exchange answered for the intent's order: a fill, a refusal, or still open. */
  private async settle(intent: Intent, order: Order): Promise<void> {
    const outcome = outcomeOf(order, intent.seq, this.id.baseAsset, intent.price, this.deps.usdtPriceOf);
    if (outcome.kind === 'filled') {
      this.failures = 0;
      await this.applyFill(outcome.fill, outcome.feePaid);
      // The exchange is the authority on positions: read it after each futures order (queued after this).
      if (this.id.market === 'future' && this.deps.exchange.venue === 'binance') void this.checkPosition();
    } else if (outcome.kind === 'failed') {
      await this.fail(intent, outcome.reason);
    } else {
      await markIntentUnknown(this.deps.db, this.id.botId, intent.seq, 'order still open');
      this.scheduleReconcile(intent, 1);
    }
  }

  /** Books a fill; `feePaid` is the fee as the exchange charged it (USDT when not given). */
  private async applyFill(fill: Fill, feePaid?: FeePaid): Promise<void> {
    const rebuy = this.isRebuy(fill.seq);
    const outcome = applyFillDetailed(this.state, fill);
    this.state = outcome.state;
    const pnl =
      outcome.closed.length > 0 ? outcome.closed.reduce((sum, lot) => sum + lot.profit, 0).toFixed(8) : null;
    const grid = outcome.opened?.grid ?? outcome.closed[0]?.grid ?? 1;
    await saveFill(
      this.deps.writes,
      this.id.botId,
      this.id.userId,
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
      this.state,
      this.lastPrice ?? Number(fill.price),
    );
    if (rebuy) await finishAppliedMissingLots(this.deps.db, this.id.botId);
    // The fill may have booked the sale a stop and sell, or the re-buy a resume, waits for.
    this.deps.onCommandsSettled?.(this.id.botId);
  }

  private async fail(intent: Intent, reason: string): Promise<void> {
    const rebuy = this.isRebuy(intent.seq);
    this.state = applyIntentFailed(this.state, intent.seq);
    await saveIntentFailed(this.deps.db, this.id.botId, intent.seq, reason, this.state, this.lastPrice);
    // The lots still count on coins the account lacks: paused again (the resume waiting for the re-buy
    // fails with the reason), and Resume asks again.
    if (rebuy) return this.halt(rebuyFailedReason(reason));
    this.deps.onCommandsSettled?.(this.id.botId);
    this.failures += 1;
    if (this.failures >= MAX_FAILURES) await this.halt(`Orders keep failing: ${reason}`);
  }

  /** An intent written but never sent: undone on the bot and closed as failed, without counting as a failure. */
  private async withdraw(intent: Intent, reason: string): Promise<void> {
    if (!this.state.pending.some((p) => p.intent.seq === intent.seq)) return;
    this.state = applyIntentFailed(this.state, intent.seq);
    await saveIntentFailed(this.deps.db, this.id.botId, intent.seq, reason, this.state, this.lastPrice);
  }

  private async onOrderError(intent: Intent, error: unknown, attempts: number): Promise<void> {
    if (isExchangeError(error) && error.reason === 'reduce_only_rejected' && intent.type === 'SellLots') {
      const gone = await this.positionGone(intent).catch(() => undefined);
      // No answer about the position: ask about the order again later, never halt on a guess.
      if (gone === undefined) {
        await markIntentUnknown(this.deps.db, this.id.botId, intent.seq, String(error));
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
      this.state = applyIntentFailed(this.state, intent.seq);
      await saveIntentFailed(
        this.deps.db,
        this.id.botId,
        intent.seq,
        error.userMessage,
        this.state,
        this.lastPrice,
      );
      if (error.kind === 'fatal') this.deps.onAuthError?.(this.id.userId);
      return this.halt(error.userMessage);
    }
    // Unknown outcome (no answer, reset, 5xx, -1007, rate limit): the order may or may not exist. Never
    // send again before asking, and keep asking until the exchange answers (docs/trading-rules.md §3).
    await markIntentUnknown(this.deps.db, this.id.botId, intent.seq, String(error));
    this.scheduleReconcile(intent, attempts + 1);
  }

  /**
   * A reduce-only exit was refused as not reducing the position: the exchange may no longer hold it (docs/trading-rules.md §3: the
   * exchange is the authority on positions). Answers false when it still holds what the exit sells (an
   * ordinary refusal). Otherwise the exit is withdrawn and the bot follows the exchange: true.
   */
  private async positionGone(intent: Extract<Intent, { type: 'SellLots' }>): Promise<boolean> {
    if (this.id.market !== 'future') return false;
    const position = await this.deps.exchange.position(this.id.symbol);
    if (position && money(position.quantity).gte(intent.qty)) return false;
    await this.withdraw(intent, 'ReduceOnly Order is rejected: the exchange holds no such position');
    // Decisions taken together with this exit (a new grid 1 on the emptied stack) were taken on lots the
    // exchange no longer holds: they are withdrawn too, never sent.
    for (const seq of [...this.unsent]) {
      const pending = this.state.pending.find((p) => p.intent.seq === seq);
      this.unsent.delete(seq);
      if (pending) await this.withdraw(pending.intent, 'not sent: the exchange closed the position');
    }
    await this.followExchangePosition(position === undefined);
    return true;
  }

  /**
   * Takes the exchange's current rules of the symbol (Binance: exchangeInfo, which the adapter reads again
   * once a day), so the engine sizes orders with the filters the exchange checks them against now, not the
   * ones of the day the bot started (docs/trading-rules.md §3). No answer: the rules in use stay.
   */
  refreshRules(): Promise<void> {
    return this.serial(async () => {
      if (this.finished) return;
      const fresh = await this.deps.exchange
        .marketRules(this.id.symbol, this.id.market)
        .catch(() => undefined);
      if (fresh) this.rules = compileRules(fresh);
    });
  }

  /**
   * A spot bot on Binance compares its lots with the coin the account holds (on a timer). Coins the user
   * sold outside the platform leave lots the bot can never sell: the bot is paused with the reason shown,
   * before a take-profit is refused for lack of balance (docs/trading-rules.md §3).
   */
  checkHoldings(): Promise<void> {
    return this.serial(async () => {
      if (this.finished || this.id.market !== 'spot') return;
      if (this.state.lots.length === 0 || this.state.pending.length > 0) return;
      const balances = await this.deps.exchange.balances('spot').catch(() => null);
      if (balances === null) return; // no answer: ask on the next round
      const coin = balances.find((b) => b.asset === this.id.baseAsset);
      const held = coin ? money(coin.free).plus(coin.locked) : money(0);
      const lots = this.state.lots.reduce((sum, lot) => sum.plus(lot.qty), money(0));
      if (held.gte(lots)) return;
      const holder = this.state.kind === 'cycle' ? 'cycle' : 'bot';
      await this.halt(missingCoinsReason(held.toFixed(), lots.toFixed(), this.id.baseAsset, holder));
    });
  }

  /** The coin of the bot the exchange account holds (free and locked); null when it does not answer. */
  private async heldCoin(): Promise<Money | null> {
    const balances = await this.deps.exchange.balances('spot').catch(() => null);
    if (balances === null) return null;
    const coin = balances.find((b) => b.asset === this.id.baseAsset);
    return coin ? money(coin.free).plus(coin.locked) : money(0);
  }

  /**
   * The user's answer on Resume to coins sold outside the platform (docs/trading-rules.md §3): the missing
   * quantity is bought again at market through the ordinary intent path, or dropped from the lots and booked
   * at the last price. Either way the lots then equal the coin the account holds.
   */
  private async resolveMissingLots(command: CommandRow): Promise<void> {
    const { choice } = botCommandSchema.parse({ ...command.payload, type: command.type }) as {
      choice: 'rebuy' | 'drop';
    };
    if (this.state.pending.length > 0) {
      await finishCommand(this.deps.db, command.id, 'missing lots are settled with no order under way');
      return;
    }
    const held = await this.heldCoin();
    const price = this.lastPrice;
    if (held === null || price === null) {
      // Trading on would sell coins the account lacks: paused again, and Resume asks again.
      await finishCommand(this.deps.db, command.id, missingCoinsUnsettled);
      return this.halt(missingCoinsUnsettled);
    }
    if (choice === 'drop') {
      const dropped = dropMissingLots(this.state, held.toFixed(), price, this.deps.now());
      this.state = dropped.state;
      const pnl = dropped.closed.reduce((sum, lot) => sum.plus(lot.profit), money(0));
      await saveCommandApplied(this.deps.writes, this.id.botId, command.id, this.state, price, false, {
        userId: this.id.userId,
        pnl: pnl.toFixed(8),
      });
      return;
    }
    const rebuy = rebuyMissing(this.state, held.toFixed(), price, this.rules);
    this.state = rebuy.state;
    // A re-buy under way leaves the command applied: it is done when the buy is booked (`applyFill`), or
    // failed with the pause that follows a refusal (`fail`), so Resume answers with what happened.
    const awaitsBuy = rebuy.intent !== null;
    await saveCommandApplied(this.deps.writes, this.id.botId, command.id, this.state, price, awaitsBuy);
    if (rebuy.intent) await this.send([rebuy.intent], price);
  }

  /** Whether `seq` is the re-buy of coins sold outside the platform (its fill tops up the newest lot). */
  private isRebuy(seq: number): boolean {
    const intent = this.state.pending.find((p) => p.intent.seq === seq)?.intent;
    return intent?.type === 'MarketBuy' && intent.missingQty !== undefined;
  }

  /**
   * Reads the exchange's position of a futures bot (after each order and on a timer, Binance only) and
   * reconciles the bot when the exchange closed or liquidated it.
   */
  checkPosition(): Promise<void> {
    return this.serial(async () => {
      if (this.finished || this.id.market !== 'future' || this.deps.exchange.venue !== 'binance') return;
      if (this.state.lots.length === 0 || this.state.pending.length > 0) return;
      const position = await this.deps.exchange.position(this.id.symbol).catch(() => null);
      if (position === null) return; // no answer: ask on the next round
      const held = this.state.lots.reduce((sum, lot) => sum.plus(lot.qty), money(0));
      if (position && money(position.quantity).gte(held)) return;
      await this.followExchangePosition(position === undefined);
    });
  }

  /**
   * The exchange holds less than the bot's lots. On Binance, a position the exchange closed itself (a
   * force order: liquidation or auto-deleveraging) is booked with the exchange's figures and stops the bot
   * with reason `liquidated` (docs/trading-rules.md §3). On the paper exchange, flat with a liquidation price
   * on the bot, the engine books the liquidation the way it does on a price. Anything else (closed outside
   * the bot) halts with the reason shown.
   */
  private async followExchangePosition(flat: boolean): Promise<void> {
    if (flat && this.deps.exchange.venue === 'binance') {
      const since = Math.min(...this.state.lots.map((lot) => lot.timeMs)) - FORCE_ORDER_SLACK_MS;
      const closes = await this.deps.exchange.forcedCloses(this.id.symbol, since).catch(() => null);
      if (closes === null) return; // no answer: asked again on the next check
      const close = closes.at(-1);
      if (close) return this.bookExchangeClose(close);
    }
    const liq = this.state.account.liqPrice;
    // Once only: should the engine answer the liquidation tick with an exit (a stoploss above the
    // liquidation price), that exit is refused too and the bot halts instead of looping.
    if (flat && liq > 0 && this.deps.exchange.venue === 'paper' && !this.followingExchange) {
      this.followingExchange = true;
      try {
        // Just below the level, so the engine's risk exit (checked first) is what the tick triggers.
        await this.stepAndExecute(liq * (1 - 1e-9), this.deps.now());
      } finally {
        this.followingExchange = false;
      }
      return;
    }
    await this.halt('The exchange no longer holds this bot’s futures position (closed outside the bot).');
  }

  /** Books the exchange's own close of the position (its trades' price, realized PnL and fee) and stops. */
  private async bookExchangeClose(close: ForcedClose): Promise<void> {
    const price = Number(close.averagePrice);
    const { state, intent } = liquidatedByExchange(this.state, {
      price,
      realizedPnl: close.realizedPnl,
      fee: close.fee,
    });
    if (intent === null) return;
    this.deps.log('position closed by the exchange', {
      botId: this.id.botId,
      orderId: close.exchangeOrderId,
      reason: close.reason,
    });
    this.state = state;
    await this.send([intent], this.lastPrice ?? price);
  }

  private scheduleReconcile(intent: Intent, attempts: number): void {
    if (this.finished) return;
    const delayMs = (this.deps.reconcileDelayMs ?? reconcileDelayMs)(attempts);
    clearTimeout(this.retryTimers.get(intent.seq));
    this.retryTimers.set(
      intent.seq,
      setTimeout(() => {
        this.retryTimers.delete(intent.seq);
        void this.serial(() => this.reconcile(intent, attempts));
      }, delayMs),
    );
  }

  /** Asks the exchange about the intent's order: settle what it says, resend only when it has none. */
  private async reconcile(intent: Intent, attempts: number): Promise<void> {
    if (this.finished || !this.state.pending.some((p) => p.intent.seq === intent.seq)) return;
    if (intent.type === 'RecordLiquidation') return this.execute(intent);
    let order: Order;
    try {
      const found = await this.deps.exchange.fetchOrder(
        this.id.market,
        this.id.symbol,
        clientOrderIdOf(this.id.botId, intent.seq),
      );
      order = found.found ? found.order : await this.placeNew(intent);
    } catch (error) {
      return this.onOrderError(intent, error, attempts);
    }
    // As in `execute`: a failure to book it breaks the task, never counts as an order error.
    return this.settle(intent, order);
  }

  /** Pauses the bot from outside its own decisions (the API key lost a right it needs). */
  haltWith(reason: string): Promise<void> {
    return this.halt(reason);
  }

  private async halt(reason: string): Promise<void> {
    this.deps.log('bot halted', { botId: this.id.botId, reason });
    await haltBot(this.deps.writes, this.id.botId, reason);
    this.deps.onCommandsSettled?.(this.id.botId);
    this.finish();
  }

  private finishIfStopped(): void {
    const done = this.state.status === 'Stopped' || this.state.status === 'Completed';
    if (done && !isStopping(this.state)) this.finish();
  }

  private finish(): void {
    if (this.finished) return;
    // A stop that sent nothing (nothing left to sell) moved the state without a write: it is written last,
    // so the bot reads Stopped and a stop and sell waiting for it is done.
    if (this.dirty) {
      this.dirty = false;
      const { state, lastPrice } = this;
      void this.serial(() => saveState(this.deps.db, this.id.botId, state, lastPrice));
    }
    this.finished = true;
    this.stopTimers();
    this.deps.onFinished(this.id.botId);
  }
}
