import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { botFills, botIntents, createTestDb, type DbHandle, paperOrders } from '@gridbot/db';
import { PaperExchange } from '@gridbot/exchange';
import { ManualFeed } from '@gridbot/exchange/testing';
import { money } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { SqlPaperStore } from '../modules/paper/sql-paper-store.repo';
import { serverNodeArgs } from './server-process';
import { expectOrdersMatchIntents } from './venue-checks';

// The harness of the crash tests (`worker/crash*.pg.test.ts`): a real server process on
// PostgreSQL and the replay feed, killed with SIGKILL at random moments, and the checks made after the kills.
export const CRASH_MASTER_KEY = 'cd'.repeat(32);
const serverMain = fileURLToPath(new URL('../main.ts', import.meta.url));
/** main.ts with a kill at a named fault point (`crash-server.ts`). */
export const crashServerMain = fileURLToPath(new URL('./crash-server.ts', import.meta.url));
const dataDir = fileURLToPath(new URL('../../../../fixtures/replay', import.meta.url));
/** How long a run waits past its time for the server to start what the run is for (`killRepeatedly`). */
const START_WAIT_MS = 20_000;
/**
 * How long a server may take to stop on SIGTERM before the harness kills it and fails the test with its
 * stderr: a stop that never ends would otherwise hang the test until Vitest's timeout, saying nothing.
 */
const STOP_WAIT_MS = 30_000;
/** How long the last run may take to launch its bots (each may wait out an order's window) before it settles. */
const READY_WAIT_MS = 90_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The test file's own database and harness: opened before its tests, closed after them. */
export function crashTestContext() {
  const context = {} as { handle: DbHandle; harness: ReturnType<typeof crashHarness>; secrets: SecretBox };
  beforeAll(async () => {
    context.handle = await createTestDb();
    context.harness = crashHarness(context.handle);
    context.secrets = SecretBox.fromKey(Buffer.from(CRASH_MASTER_KEY, 'hex'));
  });
  afterAll(async () => {
    await context.handle.close();
  });
  return context;
}

/** The harness for one test database. */
export function crashHarness(handle: DbHandle) {
  /** The last 4,000 characters each started server wrote to stderr. */
  const stderrOf = new WeakMap<ChildProcess, () => string>();
  /** The last 4,000 characters of each started server's log (its warnings and errors). */
  const logOf = new WeakMap<ChildProcess, () => string>();

  /**
   * Starts a server and resolves once it answers /healthz. A server that dies first rejects with its
   * stderr, except one `mayDie` (a crash server whose fault point can be reached while it starts up: a cycle
   * that sells within its first moments): that one resolves dead, and the caller's `exited` sees it.
   */
  async function startServer(
    port: number,
    options: { entry?: string; env?: Record<string, string>; mayDie?: boolean; speed?: number } = {},
  ): Promise<ChildProcess> {
    const child = spawn(process.execPath, serverNodeArgs(options.entry ?? serverMain), {
      env: {
        ...process.env,
        ...options.env,
        DATABASE_URL: handle.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        MASTER_KEY: CRASH_MASTER_KEY,
        SEED_DEMO: 'false',
        MARKET_FEED: 'replay',
        MARKET_REPLAY_DIR: dataDir,
        MARKET_SPEED: String(options.speed ?? 20_000),
        // Warnings too: a launch that failed or a bot halted is a warning, and says why a run stalled.
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, killed as a whole
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    stderrOf.set(child, () => stderr);
    let log = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    logOf.set(child, () => log);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        // Its own SIGKILL at the fault point; any other death is a failure to start.
        if (options.mayDie && child.signalCode === 'SIGKILL') return child;
        throw new Error(`server died while starting (${child.exitCode ?? child.signalCode}): ${stderr}`);
      }
      try {
        const health = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
        if (health.ok) return child;
      } catch {
        // not up yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`server did not start within 60 s: ${stderr}\nits log:\n${log}`);
  }

  /** Resolves once the server says ready (/readyz: every bot launched), within `READY_WAIT_MS`. */
  async function launched(port: number, child: ChildProcess): Promise<void> {
    const deadline = Date.now() + READY_WAIT_MS;
    while (Date.now() < deadline) {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`, {
        signal: AbortSignal.timeout(2000),
      }).then(
        (res) => res.ok,
        () => false,
      );
      if (ready) return;
      await sleep(200);
    }
    throw new Error(
      `server did not launch its bots within ${READY_WAIT_MS / 1000} s; its log:\n${logOf.get(child)?.() ?? ''}`,
    );
  }

  /**
   * Sends `signal` to the server's process group and resolves once it exited. One that has not exited
   * `STOP_WAIT_MS` after a SIGTERM is killed and rejects with its stderr.
   */
  const kill = (child: ChildProcess, signal: NodeJS.Signals) =>
    new Promise<void>((resolve, reject) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const stuck =
        signal === 'SIGKILL'
          ? undefined
          : setTimeout(() => {
              process.kill(-(child.pid as number), 'SIGKILL');
              reject(
                new Error(
                  `server did not stop within ${STOP_WAIT_MS / 1000} s of ${signal}: ${stderrOf.get(child)?.() ?? ''}`,
                ),
              );
            }, STOP_WAIT_MS);
      child.once('exit', () => {
        clearTimeout(stuck);
        resolve();
      });
      process.kill(-(child.pid as number), signal);
    });

  /** Whether the process ended by itself within `ms`. */
  const exited = (child: ChildProcess, ms: number) =>
    new Promise<boolean>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
      const timer = setTimeout(() => resolve(false), ms);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });

  /** After the kills: no open intent, the venue's filled orders are the bot's fills, its books equal them. */
  async function expectConsistent(userId: string, botId: string, base: string) {
    const intents = await handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));
    const fills = await handle.db.select().from(botFills).where(eq(botFills.botId, botId));
    const orders = await handle.db.select().from(paperOrders).where(eq(paperOrders.userId, userId));
    expect(fills.length).toBeGreaterThan(0);
    // Every order the venue filled is one fill of the bot under the same client order id, and back.
    expectOrdersMatchIntents(intents, fills, orders);

    // The venue's books equal the bot's fills to the cent.
    const store = new PaperExchange({ store: new SqlPaperStore(handle.db), feed: new ManualFeed() }).store;
    const ledger = await store.ledger(userId);
    const sum = (asset: string) =>
      ledger.filter((l) => l.asset === asset).reduce((s, l) => s.plus(l.amount), money(0));
    // A buy pays its quote and its fee comes out of the coin bought (docs/trading-rules.md §3).
    const usdt = fills.reduce(
      (s, f) => (f.side === 'buy' ? s.minus(f.quote) : s.plus(f.quote).minus(f.fee)),
      money(10_000),
    );
    const coinFee = new Map(orders.map((o) => [o.clientOrderId, o.feeAsset === base ? o.fee : '0']));
    const held = fills.reduce(
      (s, f) =>
        f.side === 'buy' ? s.plus(f.qty).minus(coinFee.get(f.clientOrderId) ?? '0') : s.minus(f.qty),
      money(0),
    );
    expect(sum('USDT').toFixed(2)).toBe(usdt.toFixed(2));
    expect(sum(base).toFixed(8)).toBe(held.toFixed(8));
    return fills;
  }

  /** The coin the user's paper account holds (its ledger's sum). */
  async function coinHeld(userId: string, asset: string) {
    const store = new PaperExchange({ store: new SqlPaperStore(handle.db), feed: new ManualFeed() }).store;
    const ledger = await store.ledger(userId);
    return ledger.filter((l) => l.asset === asset).reduce((s, l) => s.plus(l.amount), money(0));
  }

  /**
   * Kills the server `kills` times at random moments (`runMs`, from its answering /healthz, or from its
   * having launched every bot with `runFrom: 'launched'`), then lets a last run
   * reconcile and `settle` (by default: run 3 s) before it stops cleanly; `beforeLast` runs while no server
   * does (commands queued then are the last run's at its start). `env` is every run's own.
   */
  async function killRepeatedly(
    port: number,
    kills: number,
    options: {
      env?: Record<string, string>;
      /** How many times faster than real time the replay runs (`MARKET_SPEED`, 20 000 unless given). */
      speed?: number;
      runMs?: () => number;
      /**
       * Where a run's time counts from: the server answering (its bots may still be launching, so a kill can
       * land inside a launch) or every bot launched (each run trades for its whole time, however long a
       * launch that waits out an order's window takes on a loaded host).
       */
      runFrom?: 'answering' | 'launched';
      /**
       * Whether the run still lacks what it is for (a fault the exchange has not yet met with an order, say):
       * it then goes on killing after `kills`, up to `maxKills`, so that a slow host tests as much as a fast one.
       */
      lacking?: () => boolean;
      maxKills?: number;
      /**
       * Whether the server has started what the run is for (placed its first order, say). Until it has, each
       * run goes on past its time until it does, up to `START_WAIT_MS`: on a loaded host a server killed every
       * time before its first order tests nothing, however often it is killed.
       */
      started?: () => boolean;
      /** What the run has met so far, logged after each kill with the time since the first start. */
      progress?: () => Promise<string>;
      beforeLast?: () => Promise<void>;
      settle?: () => Promise<void>;
    } = {},
  ) {
    const runMs = options.runMs ?? (() => 300 + Math.random() * 1500);
    const lacking = options.lacking ?? (() => false);
    const began = Date.now();
    let stallLogged = false;
    const report = async (line: string) => {
      if (options.progress)
        console.log(`${Math.round((Date.now() - began) / 1000)} s: ${line}, ${await options.progress()}`);
    };
    for (let i = 0; i < kills || (i < (options.maxKills ?? kills) && lacking()); i += 1) {
      const child = await startServer(port, {
        env: options.env,
        ...(options.speed ? { speed: options.speed } : {}),
      });
      if (options.runFrom === 'launched') await launched(port, child);
      await sleep(runMs());
      const startBy = Date.now() + START_WAIT_MS;
      while (options.started?.() === false && Date.now() < startBy) await sleep(100);
      // A run that waited in vain for the server to start its work: its log says why, once per test.
      const stalled = options.started?.() === false && !stallLogged;
      await kill(child, 'SIGKILL');
      await report(`kill ${i + 1}`);
      if (stalled) {
        stallLogged = true;
        console.log(
          `the server did not start within ${START_WAIT_MS / 1000} s; its log:\n${logOf.get(child)?.()}`,
        );
      }
    }
    await options.beforeLast?.();
    const last = await startServer(port, {
      env: options.env,
      ...(options.speed ? { speed: options.speed } : {}),
    });
    try {
      // The server answers while its bots are still being launched (one may wait out an order's window): the
      // last run settles from the moment every launch has ended.
      await launched(port, last);
      await (options.settle ?? (() => new Promise((resolve) => setTimeout(resolve, 3000))))();
      await report('last run settled');
    } finally {
      await kill(last, 'SIGTERM');
    }
  }

  return { startServer, kill, exited, expectConsistent, coinHeld, killRepeatedly };
}
