import { setTimeout as delay } from 'node:timers/promises';
import type { Db } from '@gridbot/db';
import { noMetrics, type WorkerMetrics } from '../ops/metrics';
import type { BotSupervisor } from './bot-supervisor';
import * as leases from './leases.repo';

export interface LeaseCoordinatorOptions {
  db: Db;
  workerId: string;
  /** Lease time: a dead worker's bots are taken over after at most this long. */
  leaseMs: number;
  /** How often queued commands and free leases are looked for in the database (missed bus messages). */
  pollMs: number;
  log: (message: string, extra?: Record<string, unknown>) => void;
  metrics?: WorkerMetrics;
  /** Tells the other workers that leases were handed back (bus `wake`). */
  announceRelease?: () => void;
}

/** A lease is trusted locally for this share of its time after the renewal that granted it started. */
const LOCAL_TRUST = 0.8;
/** Batches of claimed bots launched at once, and the most bots in one batch. */
const LAUNCH_CONCURRENCY = 2;
const LAUNCH_BATCH = 250;
/**
 * The catch-up of lease rows (`syncLeases`) runs on the first beat and then once per this many lease times: it
 * reads every bot (70–220 ms of a database core at 10,000 bots, which held up the intent writes of that
 * moment every 5 s), and it only mends what the API's own lease rows missed.
 */
const SYNC_EVERY_LEASES = 4;
/**
 * A starting worker announces itself and waits this long (a third of the lease time, at most JOIN_WINDOW_MAX_MS)
 * before its first claim, so that workers started together count each other then. Without it the first to beat
 * claims every bot and hands half back at its next beat: each of those bots is launched, stopped, written and
 * reconciled again on the other worker.
 */
const JOIN_WINDOW_MAX_MS = 2_000;

/**
 * One worker's side of the bot leases: heartbeat, renewal, fair-share claiming and handing back.
 * Each beat (a third of the lease time) renews this worker's leases and drops every bot whose lease it no
 * longer holds before anything else; then it hands back bots above its fair share (ceil(bots / live
 * workers)) or claims free and expired ones up to it. A claimed bot is launched by the supervisor, which
 * reconciles its unfinished intents before it trades (docs/trading-rules.md §3). Each lease is held with the
 * fencing token of its claim (`epochOf`): the bot's runner writes only while the row still carries it
 * (`lease-fence.ts`), and a refused write lets the bot go here (`onFenced`).
 */
export class LeaseCoordinator {
  /** Bots whose lease this worker holds, with the fencing token it holds each one with (`lease-fence.ts`). */
  private readonly owned = new Map<string, number>();
  private validUntil = 0;
  private supervisor: BotSupervisor | undefined;
  private readonly metrics: WorkerMetrics;
  private beatTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private kickTimer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private lastSyncAt = Number.NEGATIVE_INFINITY;
  /** Claimed bots waiting for their launch, in claim order (a set: a beat re-queues every bot not running). */
  private readonly launchQueue = new Set<string>();
  private launching = 0;
  private pumpScheduled = false;

  constructor(private readonly options: LeaseCoordinatorOptions) {
    this.metrics = options.metrics ?? noMetrics;
  }

  /** The hooks a leased `BotSupervisor` takes (create the supervisor with them, then `start(supervisor)`). */
  readonly hooks = {
    mayRun: (botId: string) => this.owned.has(botId) && performance.now() < this.validUntil,
    epochOf: (botId: string) => this.owned.get(botId),
    /** A write for the bot was refused: another worker took its lease over. The supervisor let it go. */
    onFenced: (botId: string) => {
      if (!this.owned.delete(botId)) return;
      this.metrics.setBotsOwned(this.owned.size);
      this.options.log('bot lease taken over; a write was refused and the bot let go', {
        workerId: this.workerId,
        botId,
      });
    },
    onFinished: (botId: string) => {
      if (!this.owned.delete(botId)) return;
      leases.dropLease(this.options.db, this.options.workerId, botId).catch((error: unknown) => {
        this.options.log('dropping a finished bot lease failed', { botId, err: String(error) });
      });
    },
  };

  get workerId(): string {
    return this.options.workerId;
  }

  /** Bots whose lease this worker holds. */
  get ownedCount(): number {
    return this.owned.size;
  }

  /** Ready once the first beat went through (leases are being renewed). */
  get ready(): boolean {
    return performance.now() < this.validUntil;
  }

  async start(supervisor: BotSupervisor): Promise<void> {
    this.supervisor = supervisor;
    // Not reaching the database here is not fatal: the beats below keep trying, as they do later on.
    await leases
      .heartbeat(this.options.db, this.options.workerId)
      .catch((error: unknown) => this.options.log('lease beat failed', { err: String(error) }));
    await delay(Math.min(this.options.leaseMs / 3, JOIN_WINDOW_MAX_MS));
    if (this.stopped) return;
    await this.beat();
    this.beatTimer = setInterval(() => this.kick(0), Math.max(100, Math.floor(this.options.leaseMs / 3)));
    this.pollTimer = setInterval(() => void this.poll(), this.options.pollMs);
  }

  /** A bot was started by the API: make sure it has a lease and claim soon. */
  async add(botId: string): Promise<void> {
    await leases.ensureLease(this.options.db, botId);
    this.kick(20);
  }

  /** Commands were queued for a bot: its owner applies them; a bot nobody runs gets a short lease for them. */
  async notify(botId: string): Promise<void> {
    const supervisor = this.supervisor;
    if (!supervisor || this.stopped) return;
    if (this.owned.has(botId)) {
      if (supervisor.runner(botId)) await supervisor.notify(botId);
      return;
    }
    const [row] = (await leases.botsWithQueuedCommands(this.options.db)).filter((r) => r.botId === botId);
    if (row && row.owner === null) await this.commandsOfUnowned(botId);
  }

  /** Runs a beat soon (coalesced): after a bus wake-up, a new bot, or on the timer. */
  kick(delayMs: number): void {
    if (this.stopped || this.kickTimer) return;
    this.kickTimer = setTimeout(() => {
      this.kickTimer = undefined;
      void this.beat();
    }, delayMs);
  }

  /** Graceful shutdown: stops the bots (their state written), hands every lease back, leaves the pool. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.beatTimer);
    clearInterval(this.pollTimer);
    clearTimeout(this.kickTimer);
    await this.beating;
    const ids = [...this.owned.keys()];
    await Promise.all(ids.map((id) => this.supervisor?.drop(id, { flush: true })));
    this.owned.clear();
    this.validUntil = 0;
    await leases.releaseLeases(this.options.db, this.options.workerId);
    await leases.removeWorker(this.options.db, this.options.workerId);
    this.options.announceRelease?.();
  }

  /** One beat at a time; a beat asked for while one runs runs right after it. */
  beat(): Promise<void> {
    if (this.beating) {
      this.again = true;
      return this.beating;
    }
    this.beating = this.beatOnce()
      .catch((error: unknown) => this.options.log('lease beat failed', { err: String(error) }))
      .finally(() => {
        this.beating = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          void this.beat();
        }
      });
    return this.beating;
  }

  private async beatOnce(): Promise<void> {
    if (this.stopped) return;
    const { db, workerId, leaseMs } = this.options;
    // Elapsed time on the monotonic clock: how long this worker trusts its leases locally, counted from the
    // beat's start (the leases' expiries themselves are PostgreSQL's, leases.repo.ts).
    const startedAt = performance.now();
    let held: Map<string, number>;
    try {
      await leases.heartbeat(db, workerId);
      held = await leases.renewLeases(db, workerId, leaseMs);
    } catch (error) {
      // Cannot renew: stop trading every bot at once; whoever holds the leases next reconciles them.
      this.validUntil = 0;
      await this.loseAll();
      throw error;
    }
    this.validUntil = startedAt + leaseMs * LOCAL_TRUST;
    for (const botId of [...this.owned.keys()]) if (!held.has(botId)) await this.lose(botId);
    // e.g. claimed before a restart
    for (const [botId, epoch] of held) if (!this.owned.has(botId)) this.owned.set(botId, epoch);

    if (startedAt - this.lastSyncAt >= leaseMs * SYNC_EVERY_LEASES) {
      await leases.syncLeases(db);
      await leases.forgetDeadWorkers(db, leaseMs);
      this.lastSyncAt = startedAt;
    }
    const total = await leases.leaseCount(db);
    const workers = Math.max(1, await leases.liveWorkerCount(db, leaseMs));
    const fair = Math.ceil(total / workers);
    if (this.owned.size > fair) await this.handBack(this.owned.size - fair);
    else if (this.owned.size < fair) await this.claim(fair - this.owned.size);
    for (const botId of this.owned.keys()) if (!this.supervisor?.runner(botId)) this.enqueueLaunch(botId);
    this.metrics.setBotsOwned(this.owned.size);
  }

  private async claim(count: number): Promise<void> {
    const { db, workerId, leaseMs } = this.options;
    const claimed = await leases.claimLeases(db, workerId, leaseMs, count);
    const takeovers = claimed.filter((c) => c.previousOwner !== null);
    if (takeovers.length > 0) {
      this.metrics.leaseTakeover(takeovers.length);
      this.options.log('took over expired bot leases', {
        workerId,
        bots: takeovers.length,
        from: [...new Set(takeovers.map((t) => t.previousOwner))],
      });
    }
    for (const { botId, epoch } of claimed) this.owned.set(botId, epoch);
  }

  /** Rebalancing: the state of each bot is written before its lease is free for another worker. */
  private async handBack(count: number): Promise<void> {
    const ids = [...this.owned.keys()].slice(-count);
    for (const id of ids) this.owned.delete(id);
    await Promise.all(ids.map((id) => this.supervisor?.drop(id, { flush: true })));
    await leases.releaseLeases(this.options.db, this.options.workerId, ids);
    this.options.log('handed bot leases back for rebalancing', { workerId: this.workerId, bots: ids.length });
    this.options.announceRelease?.();
  }

  private async lose(botId: string): Promise<void> {
    this.owned.delete(botId);
    this.options.log('bot lease lost; stopped trading it', { workerId: this.workerId, botId });
    await this.supervisor?.drop(botId, { flush: false });
  }

  private async loseAll(): Promise<void> {
    for (const botId of [...this.owned.keys()]) await this.lose(botId);
  }

  private enqueueLaunch(botId: string): void {
    this.launchQueue.add(botId);
    // Pump once the caller has queued all it has, so the bots of one beat share batches.
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pumpLaunches();
    });
  }

  private pumpLaunches(): void {
    while (this.launching < LAUNCH_CONCURRENCY && this.launchQueue.size > 0) {
      const batch: string[] = [];
      for (const botId of this.launchQueue) {
        batch.push(botId);
        if (batch.length === LAUNCH_BATCH) break;
      }
      for (const botId of batch) this.launchQueue.delete(botId);
      this.launching += 1;
      void this.launch(batch).finally(() => {
        this.launching -= 1;
        this.pumpLaunches();
      });
    }
  }

  /** Launches claimed bots; a bot that needs no runner any more loses its lease row. */
  private async launch(botIds: readonly string[]): Promise<void> {
    const supervisor = this.supervisor;
    const mine = botIds.filter((botId) => this.hooks.mayRun(botId));
    if (!supervisor || mine.length === 0) return;
    try {
      const { inactive } = await supervisor.launchBots(mine);
      // A lease lost while launching: the bot must not trade here.
      for (const botId of mine) if (!this.owned.has(botId)) await supervisor.drop(botId, { flush: false });
      const done = inactive.filter((botId) => this.owned.delete(botId));
      await Promise.all(done.map((botId) => leases.dropLease(this.options.db, this.options.workerId, botId)));
    } catch (error) {
      this.options.log('launching claimed bots failed; retrying on the next beat', {
        bots: mine.length,
        err: String(error),
      });
    }
  }

  /** Catch-up for missed bus messages: queued commands of owned bots, bots nobody holds, free leases. */
  private async poll(): Promise<void> {
    if (this.stopped || !this.supervisor) return;
    try {
      for (const { botId, owner } of await leases.botsWithQueuedCommands(this.options.db)) {
        if (owner === this.workerId && this.supervisor.runner(botId)) await this.supervisor.notify(botId);
        else if (owner === null) await this.commandsOfUnowned(botId);
      }
      if ((await leases.freeLeaseCount(this.options.db)) > 0) this.kick(0);
    } catch (error) {
      this.options.log('lease poll failed', { err: String(error) });
    }
  }

  /**
   * Commands for a bot no worker holds (halted by the runtime, or between owners): take its lease, then run
   * it if it is active, or apply the commands alone and let the lease go, unless they left it Stopping (a
   * stop and sell under way): then it runs here, lease held, until its sale is booked (docs/trading-rules.md §3).
   */
  private async commandsOfUnowned(botId: string): Promise<void> {
    const supervisor = this.supervisor;
    const { db, workerId, leaseMs } = this.options;
    if (!supervisor) return;
    const epoch = await leases.claimLease(db, workerId, botId, leaseMs);
    if (epoch === undefined) return;
    this.owned.set(botId, epoch);
    if (await supervisor.launchBot(botId)) return;
    let running = false;
    try {
      await supervisor.notify(botId);
      running = await supervisor.launchBot(botId);
    } finally {
      if (!running) {
        this.owned.delete(botId);
        await leases.dropLease(db, workerId, botId);
      }
    }
  }
}
