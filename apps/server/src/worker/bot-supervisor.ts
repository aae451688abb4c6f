import { fundingTimeAtOrBefore, fundingTimesBetween } from '@gridbot/engine';
import type { Tick } from '@gridbot/exchange';
import { noMetrics, type WorkerMetrics } from '../ops/metrics';
import {
  createRunner,
  instrumentExchange,
  type Preloaded,
  preloadLaunches,
  type RunnerEnv,
} from './bot-launch';
import { BotRunner } from './bot-runner';
import { type BotRow, findBot, loadActiveBots, unhaltedBotIdsOf } from './bot-state.repo';
import { botIdsWithQueuedCommands } from './commands.repo';
import type { RangeRunner } from './range-runner';
import { createRuntimeWrites, fencedWrites, haltBot, type RuntimeWrites } from './runtime-writes';
import type { SupervisorDeps } from './supervisor-deps';

export type { SupervisorDeps } from './supervisor-deps';

const RELOAD_DELAY_MS = 5_000;
/** Bots launched together: one query each for their rows, unfinished intents and queued commands. */
const LAUNCH_BATCH = 250;

interface Running {
  /** A grid bot's or cycle's runner, or a range grid's (docs/trading-rules.md §2.6). */
  runner: BotRunner | RangeRunner;
  unsubscribe: () => void;
  /** Emission time of the tick the bot is acting on, until its first order (tick-to-order latency). */
  tickEmittedAt: number | undefined;
  /**
   * Paper futures: the latest funding time the bot has settled (`bots.funded_through_ms`); every funding time
   * after it up to the bot's tick is due. Null until the bot's first tick.
   */
  fundedThroughMs: number | null;
}

/**
 * Runs every Live and Pause bot: one `BotRunner` per bot, fed by the market feed. On start it
 * reconciles each bot's unfinished intents before the bot sees a tick (docs/trading-rules.md §3). With `leases` it runs
 * only the bots whose lease this process holds (ROLE=worker).
 */
export class BotSupervisor {
  private readonly running = new Map<string, Running>();
  private flushTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly metrics: WorkerMetrics;
  /** This process's group commits of the bots' writes, shared by every runner. */
  private readonly writes: RuntimeWrites;
  /** A coin's USDT price from its spot pair's last tick (values fees paid in BNB). */
  private readonly usdtPriceOf = (asset: string): number | undefined => {
    const price = this.deps.feed.lastPrice(`${asset}USDT`, 'spot');
    return price === undefined ? undefined : Number(price);
  };

  /** What the runners created here share of the supervisor (`createRunner`). */
  private readonly env: RunnerEnv;
  /** Per bot, the load or command in progress (`oneAtATime`). */
  private readonly loading = new Map<string, Promise<void>>();
  /** Runners being launched: their open intents may still be looked up and sent (`launch`). */
  private readonly launching = new Set<Running['runner']>();
  /** The launches in progress, settled (`launch`): a stop waits for them. */
  private readonly launches = new Set<Promise<void>>();
  /** Bots whose task broke, each to be loaded again after a pause (`reload`). */
  private readonly reloads = new Set<NodeJS.Timeout>();

  constructor(private readonly deps: SupervisorDeps) {
    this.metrics = deps.metrics ?? noMetrics;
    this.writes = createRuntimeWrites(deps.db, () => deps.now(), {
      onBotsWritten: deps.onBotsWritten,
      // The runtime's own commands (profit limit reached): bots running here apply them at once; others
      // pick them up when they are next loaded or polled.
      onCommandsQueued: (botIds) => {
        for (const id of botIds) void this.running.get(id)?.runner.runCommands();
      },
      observe: (kind, seconds) => this.metrics.dbWrite(kind, seconds),
    });
    this.env = {
      deps,
      writes: this.writes,
      writesFor: (botId) => this.writesFor(botId),
      instrument: (exchange, botId) =>
        instrumentExchange(exchange, this.metrics, () => {
          const entry = this.running.get(botId);
          const emittedAt = entry?.tickEmittedAt;
          if (entry) entry.tickEmittedAt = undefined;
          return emittedAt;
        }),
      usdtPriceOf: this.usdtPriceOf,
      onFinished: (botId) => {
        this.release(botId);
        this.deps.leases?.onFinished(botId);
      },
      onBroken: (botId) => this.reload(botId),
    };
  }

  /** Starts running the bots and resolves once every one of them is launched (`startLaunching`). */
  async start(): Promise<void> {
    await (await this.startLaunching()).launched;
  }

  /**
   * Reads every Live and Pause bot and starts launching them; resolves once all are read, with `launched`,
   * which resolves once every launch has ended. A launch may wait out an order's window (a range grid's order
   * that may still arrive, docs/trading-rules.md §3), so a server answers meanwhile: each bot read here holds
   * its turn (`oneAtATime`) until its launch ends, so a command or a start that arrives during the launch
   * waits for it instead of loading the bot a second time.
   */
  async startLaunching(): Promise<{ launched: Promise<void> }> {
    let launched = Promise.resolve();
    if (!this.deps.leases) {
      const rows = await loadActiveBots(this.deps.db);
      const batch = this.deps.launchBatch ?? LAUNCH_BATCH;
      // Each batch is read after the one before, but launched without waiting for it: the next batches' bots
      // trade while a launch waits.
      const launches: Promise<Set<string>>[] = [];
      for (let i = 0; i < rows.length; i += batch) {
        const read = await this.readAndLaunch(rows.slice(i, i + batch));
        for (const [botId, launch] of read.each)
          void this.oneAtATime(botId, () => launch.catch(() => undefined));
        launches.push(read.failed);
      }
      launched = Promise.all(launches).then(() => this.commandsOfBotsNotRunning());
    }
    // Rolling flush: every tenth of a second the next slice of bots, so each is written about once per
    // interval and no tick ever queues behind thousands of state writes at once.
    const intervalMs = this.deps.flushIntervalMs ?? 15_000;
    const sliceMs = Math.min(100, intervalMs);
    this.flushTimer = setInterval(() => void this.flushSlice(sliceMs / intervalMs), sliceMs);
    this.flushTimer.unref();
    return { launched };
  }

  /**
   * Commands queued while no server ran for bots no launch took (halted by the runtime): a stop and sell the
   * member asked for still goes out (by the next server, if this one is stopping). With leases the
   * coordinator's poll finds them.
   */
  private async commandsOfBotsNotRunning(): Promise<void> {
    if (this.stopped) return;
    for (const botId of await botIdsWithQueuedCommands(this.deps.db))
      if (!this.running.has(botId) && !this.stopped)
        await this.notify(botId).catch((error: unknown) =>
          this.deps.log('queued commands of a bot not running failed', { botId, err: String(error) }),
        );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.flushTimer);
    // A stopped worker loads and sends nothing more: a bot it was about to load again, or was loading, is the
    // next worker's, which settles its open intents itself; two workers settling one intent could each send it.
    for (const timer of this.reloads) clearTimeout(timer);
    this.reloads.clear();
    for (const runner of this.launching) {
      runner.finished = true;
      runner.stopTimers();
    }
    // No new ticks first, then the work in flight and a last write of each state: a tick taken after the
    // flush was queued would write an intent that nothing waits for before the process exits.
    for (const { unsubscribe } of this.running.values()) unsubscribe();
    await Promise.all([...this.loading.values(), ...this.launches]);
    await this.flushAll();
    for (const { runner } of this.running.values()) {
      runner.finished = true;
      runner.stopTimers();
    }
    this.running.clear();
    this.metrics.setBotsOwned(0);
  }

  /** Leased mode: runs a bot whose lease was just claimed; false when it did not start. */
  async launchBot(botId: string): Promise<boolean> {
    return (await this.launchBots([botId])).running.has(botId);
  }

  /**
   * Leased mode: runs bots whose leases were just claimed, a few queries for the whole batch. `inactive`:
   * the bots that need no runner (no longer Live or Pause, halted, or stopped by a queued command); a bot
   * whose launch failed is in neither list (logged; its lease stays, to launch again later).
   */
  async launchBots(botIds: readonly string[]): Promise<{ running: Set<string>; inactive: string[] }> {
    const missing = botIds.filter((id) => !this.running.has(id));
    const failed = await this.launchRows(await loadActiveBots(this.deps.db, missing));
    const running = new Set(botIds.filter((id) => this.running.has(id)));
    return { running, inactive: botIds.filter((id) => !running.has(id) && !failed.has(id)) };
  }

  /**
   * Stops running a bot here. With `flush` (a lease handed back) it first waits for the bot's queued work and
   * writes its state; without (the lease is lost: another worker may own it now) nothing more is written.
   */
  async drop(botId: string, options: { flush: boolean }): Promise<void> {
    const entry = this.running.get(botId);
    if (!entry) return;
    entry.unsubscribe();
    this.running.delete(botId);
    this.metrics.setBotsOwned(this.running.size);
    if (options.flush) await entry.runner.flush();
    entry.runner.finished = true;
    entry.runner.stopTimers();
  }

  /** A runner's writes: fenced by the bot's lease (none when not held here); in ROLE=all the shared ones. */
  private writesFor(botId: string): RuntimeWrites | undefined {
    if (!this.deps.leases) return this.writes;
    const epoch = this.deps.leases.epochOf(botId);
    return epoch === undefined
      ? undefined
      : fencedWrites(this.writes, { botId, epoch }, () => this.fenced(botId));
  }

  /** A write of the bot was refused (its lease taken over): nothing more is written or sent here. */
  private fenced(botId: string): void {
    const entry = this.running.get(botId);
    if (entry) {
      entry.runner.finished = true;
      entry.runner.stopTimers();
      this.release(botId);
    }
    this.deps.leases?.onFenced(botId);
  }

  /** Ids of the bots running here. */
  botIds(): string[] {
    return [...this.running.keys()];
  }

  /** Number of bots this process runs now. */
  get size(): number {
    return this.running.size;
  }

  /** A bot was created or resumed: run it. */
  add(botId: string): Promise<void> {
    return this.oneAtATime(botId, () => this.addNow(botId));
  }

  private async addNow(botId: string): Promise<void> {
    if (this.running.has(botId)) return;
    const failed = await this.launchRows(await loadActiveBots(this.deps.db, [botId]));
    if (failed.size > 0) throw new Error(`bot ${botId} could not start`);
  }

  /**
   * Commands were queued for a bot: its runner applies them in order. A bot that is not running here
   * (halted by the runtime) gets a runner for the commands alone, so it can still be stopped or sold; when
   * they leave it Stopping (its sale out, not yet booked) it is then run like any other until the sale is.
   * With leases, the coordinator does that launch, holding the lease.
   */
  notify(botId: string): Promise<void> {
    return this.oneAtATime(botId, () => this.notifyNow(botId));
  }

  private async notifyNow(botId: string): Promise<void> {
    const current = this.running.get(botId)?.runner;
    if (current) return current.runCommands();
    const row = await findBot(this.deps.db, botId);
    if (!row?.engineState || row.status === 'Stopped') return;
    const runner = await createRunner(this.env, row);
    await runner?.runCommands();
    runner?.stopTimers();
    if (runner && !this.deps.leases && !this.stopped) await this.addNow(botId);
  }

  /**
   * Runs the bot's loads and commands one after another. Loading takes a while (open intents are looked up
   * at the exchange): a command or a reload arriving meanwhile would otherwise load the bot a second time,
   * and two runners would trade one bot, each writing its own state over the other's.
   */
  private oneAtATime(botId: string, fn: () => Promise<void>): Promise<void> {
    const next = (this.loading.get(botId) ?? Promise.resolve()).then(fn);
    const settled = next.catch(() => undefined);
    this.loading.set(botId, settled);
    void settled.then(() => {
      if (this.loading.get(botId) === settled) this.loading.delete(botId);
    });
    return next;
  }

  /**
   * Pauses every running bot and cycle of a user with `reason`: those run here through their runner (so
   * nothing in memory trades on), the others in the database (a worker holding one drops it, as it is no
   * longer runnable).
   */
  async haltUserBots(userId: string, reason: string): Promise<void> {
    for (const botId of await unhaltedBotIdsOf(this.deps.db, userId)) {
      const runner = this.running.get(botId)?.runner;
      if (runner) await runner.haltWith(reason);
      else await haltBot(this.writes, botId, reason);
    }
  }

  /** The live runner of a grid bot or cycle, if this process runs it. */
  runner(botId: string): BotRunner | undefined {
    const runner = this.running.get(botId)?.runner;
    return runner instanceof BotRunner ? runner : undefined;
  }

  /** The live runner of a range grid, if this process runs it. */
  rangeRunner(botId: string): RangeRunner | undefined {
    const runner = this.running.get(botId)?.runner;
    return runner === undefined || runner instanceof BotRunner ? undefined : runner;
  }

  /**
   * Launches bots with their intents, commands and keys read for the whole batch (a restart of 10,000 bots
   * costs a few hundred queries, not a few per bot). Answers the ids whose launch failed (each is logged).
   */
  private async launchRows(rows: readonly BotRow[]): Promise<Set<string>> {
    return (await this.readAndLaunch(rows)).failed;
  }

  /**
   * Reads the bots' intents, commands and keys, then launches them; resolves once they are read, with the
   * launches in progress: `each` bot's, and `failed`, the ids whose launch failed (each logged) once all ended.
   */
  private async readAndLaunch(
    rows: readonly BotRow[],
  ): Promise<{ failed: Promise<Set<string>>; each: Map<string, Promise<void>> }> {
    if (rows.length === 0) return { failed: Promise.resolve(new Set()), each: new Map() };
    const preloaded = await preloadLaunches(this.deps.db, rows, this.deps.loadKeys);
    const each = new Map(rows.map((row) => [row.id, this.launch(row, preloaded.get(row.id)!)]));
    const failed = Promise.allSettled(each.values()).then((results) => {
      const ids = new Set<string>();
      results.forEach((result, i) => {
        if (result.status === 'fulfilled') return;
        ids.add(rows[i]!.id);
        this.deps.log('launching a bot failed', { botId: rows[i]!.id, err: String(result.reason) });
      });
      return ids;
    });
    return { failed, each };
  }

  private launch(row: BotRow, loaded: Preloaded): Promise<void> {
    const launched = this.launchNow(row, loaded);
    const settled = launched.catch(() => undefined);
    this.launches.add(settled);
    void settled.then(() => this.launches.delete(settled));
    return launched;
  }

  private async launchNow(row: BotRow, loaded: Preloaded): Promise<void> {
    const runner = await createRunner(this.env, row, loaded.keys);
    if (!runner) return;
    if (this.stopped) {
      runner.stopTimers();
      return;
    }
    this.launching.add(runner);
    try {
      await runner.reconcileOpenIntents(loaded.intents);
      await runner.runCommands(loaded.commands);
    } finally {
      this.launching.delete(runner);
    }
    // Launched while the worker stops: it must not start trading now.
    if (runner.finished || this.stopped) return;
    const market = row.category === 'Future' ? 'future' : 'spot';
    const leases = this.deps.leases;
    if (leases && !leases.mayRun(row.id)) return;
    // Launched twice at once (a lease's launch meeting a reload): the first runner trades, this one stops.
    if (this.running.has(row.id)) {
      runner.finished = true;
      runner.stopTimers();
      return;
    }
    const entry: Running = {
      runner,
      unsubscribe: () => undefined,
      tickEmittedAt: undefined,
      fundedThroughMs: row.fundedThroughMs,
    };
    entry.unsubscribe = this.deps.feed.subscribe(row.symbol, market, (tick) => {
      // Never trade past the lease's local deadline, even before the next heartbeat notices its loss.
      if (leases && !leases.mayRun(row.id)) return;
      this.metrics.tick();
      entry.tickEmittedAt = tick.emittedAt;
      if (market === 'future') this.fundIfDue(entry, row.symbol, tick);
      return runner.onTick(Number(tick.price), this.deps.now());
    });
    this.running.set(row.id, entry);
    this.metrics.setBotsOwned(this.running.size);
  }

  /**
   * Paper futures fund at the funding times of the symbol (every `fundingIntervalMs` of its rules, 8 h where
   * they do not say) that the feed's clock passed since the last one the bot settled (replay: the candles'
   * times), at the rate the feed has for them, on the tick's mark price as Binance charges it (the price where
   * the feed has no mark; docs/trading-rules.md §2.2): those between two ticks, and those that passed while no
   * worker ran the bot (a restart, a crash, a halt), at the first tick after them. A bot's first tick settles
   * the funding times before it. Binance books its own funding.
   */
  private fundIfDue(entry: Running, symbol: string, tick: Tick): void {
    const funding = this.deps.funding;
    if (!funding || this.deps.exchanges.venue !== 'paper') return;
    const intervalMs = entry.runner.rules.fundingIntervalMs;
    const mark = Number(tick.markPrice ?? tick.price);
    const settled = entry.fundedThroughMs;
    if (settled === null) {
      entry.fundedThroughMs = fundingTimeAtOrBefore(tick.tsMs, intervalMs);
      void entry.runner.onFunding([], mark, entry.fundedThroughMs);
      return;
    }
    const due = fundingTimesBetween(settled, tick.tsMs, intervalMs);
    const last = due.at(-1);
    if (last === undefined) return;
    entry.fundedThroughMs = last;
    const rated = due.map((fundingTimeMs) => ({
      fundingTimeMs,
      rate: funding.rateAt(symbol, fundingTimeMs),
    }));
    void entry.runner.onFunding(rated, mark, last);
  }

  /** Drops a runner whose task failed and loads the bot again from the database after a pause. */
  private reload(botId: string): void {
    this.release(botId);
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.reloads.delete(timer);
      if (this.stopped) return;
      if (this.deps.leases && !this.deps.leases.mayRun(botId)) return;
      this.add(botId).catch((error: unknown) => {
        this.deps.log('reloading a bot failed; trying again', { botId, err: String(error) });
        this.reload(botId);
      });
    }, this.deps.reloadDelayMs ?? RELOAD_DELAY_MS);
    timer.unref();
    this.reloads.add(timer);
  }

  private release(botId: string): void {
    const entry = this.running.get(botId);
    if (!entry) return;
    entry.unsubscribe();
    this.running.delete(botId);
    this.metrics.setBotsOwned(this.running.size);
  }

  private flushCursor = 0;

  /** Flushes the next `fraction` of the running bots (at least one), in a round robin. */
  private async flushSlice(fraction: number): Promise<void> {
    const runners = [...this.running.values()];
    if (runners.length === 0) return;
    const count = Math.max(1, Math.ceil(runners.length * fraction));
    const slice: Running['runner'][] = [];
    for (let k = 0; k < count && k < runners.length; k += 1) {
      slice.push(runners[(this.flushCursor + k) % runners.length]!.runner);
    }
    this.flushCursor = (this.flushCursor + count) % runners.length;
    await Promise.all(slice.map((runner) => runner.flush()));
  }

  private async flushAll(): Promise<void> {
    await Promise.all([...this.running.values()].map(({ runner }) => runner.flush()));
  }
}
