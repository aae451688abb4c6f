import type { Db } from '@gridbot/db';
import { compileRules, type EngineState } from '@gridbot/engine';
import type { MarketFeed } from '@gridbot/exchange';
import { getMarketRules } from '@gridbot/shared';
import type { ExchangeGateway, UserKeys } from '../modules/exchange/exchange-gateway';
import * as repo from './bot-repo';
import { BotRunner } from './bot-runner';

export interface SupervisorDeps {
  db: Db;
  feed: MarketFeed;
  exchanges: ExchangeGateway;
  /** The user's bound exchange keys, or undefined when none are saved. */
  loadKeys: (userId: string) => Promise<UserKeys | undefined>;
  now: () => number;
  log: (message: string, extra?: Record<string, unknown>) => void;
  /** How often state that moved without an order is written. Default 15 s. */
  flushIntervalMs?: number;
  /** Pause before a bot whose task failed is loaded again from the database. Default 5 s. */
  reloadDelayMs?: number;
}

const RELOAD_DELAY_MS = 5_000;

interface Running {
  runner: BotRunner;
  unsubscribe: () => void;
}

/**
 * Runs every Live and Pause bot (issue #6): one `BotRunner` per bot, fed by the market feed. On start it
 * reconciles each bot's unfinished intents before the bot sees a tick (DESIGN §3).
 */
export class BotSupervisor {
  private readonly running = new Map<string, Running>();
  private flushTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly deps: SupervisorDeps) {}

  async start(): Promise<void> {
    for (const row of await repo.loadActiveBots(this.deps.db)) await this.launch(row);
    this.flushTimer = setInterval(() => void this.flushAll(), this.deps.flushIntervalMs ?? 15_000);
    this.flushTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.flushTimer);
    await this.flushAll();
    for (const { runner, unsubscribe } of this.running.values()) {
      unsubscribe();
      runner.stopTimers();
    }
    this.running.clear();
  }

  /** Number of bots this process runs now. */
  get size(): number {
    return this.running.size;
  }

  /** A bot was created or resumed: run it. */
  async add(botId: string): Promise<void> {
    if (this.running.has(botId)) return;
    const [row] = await repo.loadActiveBots(this.deps.db, botId);
    if (row) await this.launch(row);
  }

  /**
   * Commands were queued for a bot: its runner applies them in order. A bot that is not running here
   * (halted by the runtime) gets a runner for the commands alone, so it can still be stopped or sold.
   */
  async notify(botId: string): Promise<void> {
    const current = this.running.get(botId)?.runner;
    if (current) return current.runCommands();
    const [row] = await this.deps.db.query.bots.findMany({ where: (b, { eq }) => eq(b.id, botId), limit: 1 });
    if (!row?.engineState || row.status === 'Stopped') return;
    const runner = await this.createRunner(row);
    await runner?.runCommands();
    runner?.stopTimers();
  }

  /** The live runner of a bot, if this process runs it. */
  runner(botId: string): BotRunner | undefined {
    return this.running.get(botId)?.runner;
  }

  private async launch(row: repo.BotRow): Promise<void> {
    const runner = await this.createRunner(row);
    if (!runner) return;
    await runner.reconcileOpenIntents();
    await runner.runCommands();
    if (runner.finished) return;
    const market = row.category === 'Future' ? 'future' : 'spot';
    const unsubscribe = this.deps.feed.subscribe(row.symbol, market, (tick) =>
      runner.onTick(Number(tick.price), this.deps.now()),
    );
    this.running.set(row.id, { runner, unsubscribe });
  }

  private async createRunner(row: repo.BotRow): Promise<BotRunner | undefined> {
    if (!row.engineState) return undefined;
    const market = row.category === 'Future' ? 'future' : 'spot';
    const keys = await this.deps.loadKeys(row.userId);
    if (!keys) {
      await repo.haltBot(this.deps.db, row.id, 'API keys are not connected. Connect them in API Setting.');
      return undefined;
    }
    const rules = getMarketRules(row.symbol, market);
    const last = this.deps.feed.lastPrice(row.symbol, market);
    return new BotRunner(
      { botId: row.id, userId: row.userId, symbol: row.symbol, market, baseAsset: rules.base },
      row.engineState as unknown as EngineState,
      compileRules(rules),
      {
        db: this.deps.db,
        exchange: this.deps.exchanges.forUser(row.userId, keys),
        now: this.deps.now,
        log: this.deps.log,
        onFinished: (botId) => this.release(botId),
        onBroken: (botId) => this.reload(botId),
      },
      last === undefined ? null : Number(last),
    );
  }

  /** Drops a runner whose task failed and loads the bot again from the database after a pause. */
  private reload(botId: string): void {
    this.release(botId);
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.add(botId).catch((error: unknown) => {
        this.deps.log('reloading a bot failed; trying again', { botId, err: String(error) });
        this.reload(botId);
      });
    }, this.deps.reloadDelayMs ?? RELOAD_DELAY_MS);
    timer.unref();
  }

  private release(botId: string): void {
    const entry = this.running.get(botId);
    if (!entry) return;
    entry.unsubscribe();
    this.running.delete(botId);
  }

  private async flushAll(): Promise<void> {
    await Promise.all([...this.running.values()].map(({ runner }) => runner.flush()));
  }
}
