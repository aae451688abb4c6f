import { compileRules, type EngineRules, type EngineState, type Intent, step } from '@gridbot/engine';
import { applyCommand } from './bot-commands';
import type { BotContext, BotIdentity, BotLifecycle, BotRunnerDeps } from './bot-context';
import { saveState } from './bot-state.repo';
import { isStopping } from './bot-status';
import { type CommandRow, finishCommand, queuedCommands } from './commands.repo';
import { ExchangeFollower } from './exchange-follower';
import { type DueFunding, FundingBooking, fundGridBot } from './funding-booking';
import type { IntentRow } from './intents.repo';
import { OrderTracker } from './order-tracker';
import { atLevel, type LineDecision, lineIsQuiet, stepAlongLine } from './price-line';
import { haltBot, saveCommandApplied, saveStateBatched } from './runtime-writes';

/** Decisions one tick carries out along its line (a guard; the backtest's rounds at a price stop far sooner). */
const MAX_DECISIONS_PER_TICK = 1_000;
/** How often a Binance bot takes the exchange's rules again (the adapter re-reads exchangeInfo daily). */
const RULES_REFRESH_MS = 60 * 60_000;

/**
 * One running bot: ticks in, engine decisions, orders out, fills back (docs/trading-rules.md §3). Every change of the bot
 * runs one after another on its own queue, so a tick, a fill and a user's command never interleave.
 * State is written with each intent (before sending) and each fill; in between it lives here and is
 * flushed by the supervisor. The runner feeds ticks and commands to the engine and hands the intents to
 * its `OrderTracker`; its `ExchangeFollower` keeps the bot equal to what the exchange holds, and its
 * `FundingBooking` books paper futures funding. They share the bot's `BotContext`.
 */
export class BotRunner {
  private queue: Promise<void> = Promise.resolve();
  private rulesTimer: NodeJS.Timeout | undefined;
  /** Tasks queued or running on `queue`. */
  private tasks = 0;
  private readonly ctx: BotContext;
  private readonly tracker: OrderTracker;
  private readonly follower: ExchangeFollower;
  private readonly funding: FundingBooking<EngineState>;

  constructor(
    readonly id: BotIdentity,
    state: EngineState,
    rules: EngineRules,
    deps: BotRunnerDeps,
    /** The feed's last price when the runner starts, so a command can trade before the first tick. */
    lastPrice: number | null = null,
  ) {
    this.ctx = { id, deps, state, rules, lastPrice, dirty: false, finished: false, unsent: new Set() };
    this.walksLines = deps.exchange.venue === 'paper';
    const lifecycle: BotLifecycle = {
      serial: (fn) => this.serial(fn),
      halt: (reason) => this.halt(reason),
      stepAndExecute: (price, timeMs) => this.stepAndExecute(price, timeMs),
      finishIfStopped: () => this.finishIfStopped(),
    };
    this.tracker = new OrderTracker(this.ctx, lifecycle, {
      positionGone: (intent, refusal) => this.follower.positionGone(intent, refusal),
      checkPosition: () => this.follower.checkPosition(),
    });
    this.follower = new ExchangeFollower(this.ctx, lifecycle, this.tracker);
    this.funding = new FundingBooking(this.ctx, lifecycle, fundGridBot);
    if (deps.liveRules) {
      this.rulesTimer = setInterval(() => void this.refreshRules(), RULES_REFRESH_MS);
      this.rulesTimer.unref();
    }
  }

  get currentState(): EngineState {
    return this.ctx.state;
  }

  /** The market rules the bot trades by (its funding interval included). */
  get rules(): EngineRules {
    return this.ctx.rules;
  }

  /** The state moved without a write (trailing, statistics): the next flush writes it. */
  get dirty(): boolean {
    return this.ctx.dirty;
  }

  set dirty(dirty: boolean) {
    this.ctx.dirty = dirty;
  }

  /** Stopped for good here: ticks, commands and timers do nothing more. */
  get finished(): boolean {
    return this.ctx.finished;
  }

  set finished(finished: boolean) {
    this.ctx.finished = finished;
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
    this.ctx.deps.log('bot task failed; reloading the bot from the database', {
      botId: this.ctx.id.botId,
      err: String(error),
    });
    if (this.ctx.finished) return;
    this.ctx.finished = true;
    this.stopTimers();
    this.ctx.deps.onBroken(this.ctx.id.botId);
  }

  /**
   * One tick (the feed coalesces: while this runs only the latest price waits). The engine is stepped along
   * the line from the last price to this one, as the backtest walks its path (docs/trading-rules.md §2.5), so
   * it acts at every level crossed on the way and its orders fill at those levels. With nothing queued, the
   * steps run at once and a tick that sends nothing (nearly all of them) ends here without a task: ten
   * thousand bots take ten thousand ticks a second, and a promise chain for each was a good part of a
   * worker's time. A tick that trades queues its write and orders like any other task.
   */
  /**
   * Whether the bot walks the line to each price and acts at the levels on it: only where its orders fill at
   * those levels (the paper exchange, as the backtest). On a real exchange a market order fills where the
   * market is, so a level the feed already passed is acted on at the tick's price, once per tick: walking on
   * from a fill the exchange made at another price answered each sale with a buy at that one price, and each
   * buy with a sale, losing both fees every round (docs/trading-rules.md §2.5).
   */
  private readonly walksLines: boolean;

  onTick(price: number, timeMs: number): Promise<void> | undefined {
    if (this.ctx.finished) return undefined;
    // On Binance the engine's liquidation price books nothing: reaching it sends the bot to the exchange first.
    if (this.follower.asksBeforeStep(price)) {
      return this.serial(async () => {
        if (this.ctx.finished) return;
        this.ctx.lastPrice = price;
        await this.follower.checkPositionNow();
        if (!this.ctx.finished) await this.stepAndExecute(price, timeMs);
      });
    }
    if (this.tasks > 0) {
      return this.serial(async () => {
        if (this.ctx.finished) return;
        const decision = this.advanceTo(price, timeMs);
        if (decision) await this.carryOut(decision, price, timeMs);
      });
    }
    let decision: LineDecision | null;
    try {
      decision = this.advanceTo(price, timeMs);
    } catch (error) {
      this.broken(error);
      return undefined;
    }
    if (!decision) return undefined;
    const first = decision;
    return this.serial(async () => {
      if (this.ctx.finished) return;
      await this.carryOut(first, price, timeMs);
    });
  }

  /** Steps the engine along the line from the last price to `price` up to its first decision. */
  private advanceTo(price: number, timeMs: number): LineDecision | null {
    const from = this.ctx.lastPrice;
    this.ctx.lastPrice = price;
    // A quiet line (nearly every tick) is one step at its end, without the walk's closures.
    if (!this.walksLines || (from !== null && lineIsQuiet(this.ctx.state, from, price))) {
      const intents = this.advance(price, timeMs);
      return intents.length > 0 ? { intents: atLevel(intents, price), price, level: price } : null;
    }
    return stepAlongLine(
      () => this.ctx.state,
      this.ctx.rules,
      from,
      price,
      (p) => this.advance(p, timeMs),
    );
  }

  /**
   * Sends a decision's orders, then steps again at its price until nothing more happens there (a sell-all's
   * grid 1 buys at once, as in the backtest), then walks on to the line's end `to`.
   */
  private async carryOut(first: LineDecision, to: number, timeMs: number): Promise<void> {
    let decision: LineDecision | null = first;
    for (let round = 0; decision && round < MAX_DECISIONS_PER_TICK; round++) {
      const { price, level }: LineDecision = decision;
      const filledBefore = this.ctx.state.account.trades;
      await this.tracker.send(decision.intents, price);
      // Nothing filled (refused, left as dust, still open): the bot goes on from the next tick, as it did
      // before lines were walked, rather than asking again at once. A real exchange filled at its own price:
      // the next tick decides again from there.
      if (!this.walksLines || this.ctx.finished || this.ctx.state.account.trades === filledBefore) return;
      const again = this.advance(price, timeMs);
      decision =
        again.length > 0
          ? { intents: atLevel(again, level), price, level }
          : stepAlongLine(
              () => this.ctx.state,
              this.ctx.rules,
              price,
              to,
              (p) => this.advance(p, timeMs),
            );
    }
  }

  /**
   * Funding times the paper futures bot's feed passed, each with its rate, and `settledMs`, the funding
   * time the bot has settled once they are booked (`FundingBooking.onFunding`).
   */
  onFunding(due: readonly DueFunding[], price: number, settledMs: number): Promise<void> {
    return this.funding.onFunding(due, price, settledMs);
  }

  /**
   * Applies the bot's queued commands (stop, stop and sell, edits) in order: `loaded` when the caller just
   * read them (a batch of launches), else read here. A stop and sell is done only once its sale is booked
   * (docs/trading-rules.md §3): until then it stays `applied`, and the write that books the sale ends it.
   */
  runCommands(loaded?: readonly CommandRow[]): Promise<void> {
    return this.serial(async () => {
      for (const command of loaded ?? (await queuedCommands(this.ctx.deps.db, this.ctx.id.botId))) {
        if (command.type === 'missing_lots') {
          await this.follower.resolveMissingLots(command);
          continue;
        }
        try {
          this.ctx.state = applyCommand(this.ctx.state, command);
          const awaitsSale = command.type === 'stop_sell' && isStopping(this.ctx.state);
          await saveCommandApplied(
            this.ctx.deps.writes,
            this.ctx.id.botId,
            command.id,
            this.ctx.state,
            this.ctx.lastPrice,
            awaitsSale,
          );
        } catch (error) {
          await finishCommand(this.ctx.deps.db, command.id, new Date(this.ctx.deps.now()), String(error));
          continue;
        }
        // Stop-and-sell issues its sell on the next step: take it now at the last price.
        if (this.ctx.lastPrice !== null && !this.ctx.finished)
          await this.stepAndExecute(this.ctx.lastPrice, this.ctx.deps.now());
      }
      this.finishIfStopped();
      this.ctx.deps.onCommandsSettled?.(this.ctx.id.botId);
    });
  }

  /**
   * Startup / takeover: settles every intent left open by a crash (`open`, read with the other bots of the
   * launch) before the bot trades again.
   */
  reconcileOpenIntents(open: readonly IntentRow[]): Promise<void> {
    return this.tracker.reconcileOpenIntents(open);
  }

  /** Writes the in-memory state when it moved without an order (trailing, statistics). */
  flush(): Promise<void> {
    return this.serial(async () => {
      if (!this.ctx.dirty || this.ctx.finished) return;
      this.ctx.dirty = false;
      await saveStateBatched(this.ctx.deps.writes, this.ctx.id.botId, this.ctx.state, this.ctx.lastPrice);
    });
  }

  stopTimers(): void {
    this.follower.stopTimers();
    clearInterval(this.rulesTimer);
    this.tracker.stopTimers();
  }

  private async stepAndExecute(price: number, timeMs: number): Promise<void> {
    await this.tracker.send(this.advance(price, timeMs), price);
  }

  /** Steps the engine on a price; answers the intents to write and send (none on most ticks). */
  private advance(price: number, timeMs: number): readonly Intent[] {
    const result = step(this.ctx.state, { price, timeMs }, this.ctx.rules);
    // A quiet tick answers the very same state: nothing to flush.
    const moved = result.state !== this.ctx.state;
    this.ctx.state = result.state;
    if (result.intents.length === 0) {
      if (moved) this.ctx.dirty = true;
      this.finishIfStopped();
    }
    return result.intents;
  }

  /**
   * Takes the exchange's current rules of the symbol (Binance: exchangeInfo, which the adapter reads again
   * once a day), so the engine sizes orders with the filters the exchange checks them against now, not the
   * ones of the day the bot started (docs/trading-rules.md §3). No answer: the rules in use stay.
   */
  refreshRules(): Promise<void> {
    return this.serial(async () => {
      if (this.ctx.finished) return;
      const fresh = await this.ctx.deps.exchange
        .marketRules(this.ctx.id.symbol, this.ctx.id.market)
        .catch(() => undefined);
      // Fresh filters, the same venue: who books a liquidation (bot-launch.ts) does not change.
      if (fresh)
        this.ctx.rules = {
          ...compileRules(fresh),
          liquidationFromExchange: this.ctx.rules.liquidationFromExchange === true,
        };
    });
  }

  /** A spot bot on Binance compares its lots with the coin the account holds (`ExchangeFollower`). */
  checkHoldings(): Promise<void> {
    return this.follower.checkHoldings();
  }

  /** A futures bot on Binance compares its lots with the exchange's position (`ExchangeFollower`). */
  checkPosition(): Promise<void> {
    return this.follower.checkPosition();
  }

  /** Pauses the bot from outside its own decisions (the API key lost a right it needs). */
  haltWith(reason: string): Promise<void> {
    return this.halt(reason);
  }

  private async halt(reason: string): Promise<void> {
    this.ctx.deps.log('bot halted', { botId: this.ctx.id.botId, reason });
    await haltBot(this.ctx.deps.writes, this.ctx.id.botId, reason);
    this.ctx.deps.onCommandsSettled?.(this.ctx.id.botId);
    this.finish();
  }

  private finishIfStopped(): void {
    const done = this.ctx.state.status === 'Stopped' || this.ctx.state.status === 'Completed';
    if (done && !isStopping(this.ctx.state)) this.finish();
  }

  private finish(): void {
    if (this.ctx.finished) return;
    // A stop that sent nothing (nothing left to sell) moved the state without a write: it is written last,
    // so the bot reads Stopped and a stop and sell waiting for it is done.
    if (this.ctx.dirty) {
      this.ctx.dirty = false;
      const { state, lastPrice } = this.ctx;
      void this.serial(() =>
        saveState(this.ctx.deps.db, this.ctx.id.botId, state, lastPrice, new Date(this.ctx.deps.now())),
      );
    }
    this.ctx.finished = true;
    this.stopTimers();
    this.ctx.deps.onFinished(this.ctx.id.botId);
  }
}
