import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  botCommands,
  botFills,
  botIntents,
  botLeases,
  bots,
  createTestDb,
  type DbHandle,
  paperOrders,
  sessions,
} from '@gridbot/db';
import type { GridParams } from '@gridbot/engine';
import { PaperExchange } from '@gridbot/exchange';
import { ManualFeed } from '@gridbot/exchange/testing';
import { money } from '@gridbot/shared';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { newSecretToken, sha256 } from '../lib/tokens';
import { SqlPaperStore } from '../modules/paper/sql-paper-store.repo';
import { insertBot, insertUserWithKeys, simpleMultigrid } from '../testing/bot-fixtures';
import { freePort } from '../testing/free-port';
import { startRedisServer } from '../testing/redis-server';
import { serverNodeArgs } from '../testing/server-process';
import { expectOrdersMatchIntents } from '../testing/venue-checks';

// Scale-out end to end: 1 api, 1 market and 3 worker processes on PostgreSQL and Redis, 300 bots of 50 users on
// the replay feed. A worker is SIGKILLed: its bots trade again on the others within the lease time; a fourth
// worker joins and the bots rebalance; Redis restarts while commands are sent and none is lost. At the end the
// paper ledger equals the bots' fills and no client order id was used twice. Runs in `npm run test:pg`; it
// starts its own redis-server on a free port so the shared one on 6379 is never disturbed.
const MASTER_KEY = 'ab'.repeat(32);
const LEASE_MS = 3_000;
const USERS = 50;
const BOTS_PER_USER = 6;
const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'BNBUSDT', 'SOLUSDT', 'XRPUSDT', 'ADAUSDT'];
const serverMain = fileURLToPath(new URL('../main.ts', import.meta.url));
const dataDir = fileURLToPath(new URL('../../../../fixtures/replay', import.meta.url));
// Small steps so every bot trades every few seconds of replayed market.
const busyGrid: GridParams = {
  ...simpleMultigrid,
  buyPct: [0.03, 0.03],
  tpPct: [0.03, 0.03, 0.03],
} as GridParams;

let handle: DbHandle;
const children: ChildProcess[] = [];

beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) killGroup(child, 'SIGKILL');
  await handle?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-(child.pid as number), signal);
  } catch {
    // already gone
  }
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const counts = Object.fromEntries(await leaseCounts().catch(() => new Map()));
      throw new Error(`timed out after ${timeoutMs} ms: ${what} (leases held: ${JSON.stringify(counts)})`);
    }
    await sleep(200);
  }
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = await startRedisServer(port);
  children.push(child);
  return child;
}

interface Proc {
  child: ChildProcess;
  port: number;
  output: string[];
}

function startProcess(env: Record<string, string>): Proc & { ready: Promise<void> } {
  const output: string[] = [];
  // node itself (not npx): SIGTERM reaches the server's own handler and 'exit' means its shutdown finished.
  const child = spawn(process.execPath, serverNodeArgs(serverMain), {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.length > 200) output.shift();
    });
  }
  const port = Number(env.PORT);
  const ready = until(`${env.ROLE} on ${port} ready`, 90_000, async () => {
    if (child.exitCode !== null) throw new Error(`${env.ROLE} exited: ${output.join('').slice(-2000)}`);
    const response = await fetch(`http://127.0.0.1:${port}/healthz`);
    return response.ok ? true : undefined;
  }).then(() => undefined);
  return { child, port, output, ready };
}

async function leaseCounts(): Promise<Map<string, number>> {
  const rows = await handle.db
    .select({ owner: botLeases.owner, n: sql<number>`count(*)::int` })
    .from(botLeases)
    .where(sql`${botLeases.owner} is not null and ${botLeases.expiresAt} > now()`)
    .groupBy(botLeases.owner);
  return new Map(rows.map((r) => [r.owner as string, r.n]));
}

describe('scale-out: api, market and workers on PostgreSQL and Redis', () => {
  it('fails over, rebalances and loses no command across a Redis restart', async () => {
    const t0 = Date.now();
    const redisPort = await freePort();
    let redis = await startRedis(redisPort);
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    const common = {
      DATABASE_URL: handle.url as string,
      REDIS_URL: redisUrl,
      HOST: '127.0.0.1',
      MASTER_KEY,
      SEED_DEMO: 'false',
      MARKET_FEED: 'replay',
      MARKET_REPLAY_DIR: dataDir,
      MARKET_SPEED: '30',
      LEASE_MS: String(LEASE_MS),
      WORKER_POLL_MS: '500',
      DB_POOL_SIZE: '4',
      LOG_LEVEL: 'warn',
    };

    // 300 bots of 50 users, each user on six pairs, before any process runs (the workers find them).
    const secrets = SecretBox.fromKey(Buffer.from(MASTER_KEY, 'hex'));
    const users: Array<{ id: string; token: string }> = [];
    const botIds: string[] = [];
    for (let u = 0; u < USERS; u += 1) {
      const id = await insertUserWithKeys(handle.db, secrets);
      const token = newSecretToken();
      await handle.db
        .insert(sessions)
        .values({ userId: id, tokenHash: sha256(token), expiresAt: new Date(Date.now() + 3_600_000) });
      users.push({ id, token });
      for (const symbol of SYMBOLS)
        botIds.push(await insertBot(handle.db, id, { symbol, investment: 100, params: busyGrid }));
    }
    const ownerOfBot = new Map(botIds.map((id, i) => [id, users[Math.floor(i / BOTS_PER_USER)]!]));

    const api = startProcess({ ...common, ROLE: 'api', PORT: String(await freePort()) });
    const market = startProcess({ ...common, ROLE: 'market', PORT: String(await freePort()) });
    const workers = new Map<string, Proc>();
    const startWorker = async (id: string) => {
      const worker = startProcess({
        ...common,
        ROLE: 'worker',
        WORKER_ID: id,
        PORT: String(await freePort()),
      });
      workers.set(id, worker);
      return worker.ready;
    };
    await Promise.all([api.ready, market.ready, startWorker('w1'), startWorker('w2'), startWorker('w3')]);
    console.log(`processes up after ${Date.now() - t0} ms`);

    // Spread evenly: 100 bots each.
    await until('300 bots spread over 3 workers', 30_000, async () => {
      const counts = await leaseCounts();
      const values = ['w1', 'w2', 'w3'].map((w) => counts.get(w) ?? 0);
      return values.every((n) => n === 100) ? values : undefined;
    });
    const firstFill = await until('bots trading', 30_000, async () => {
      const [row] = await handle.db.select({ n: sql<number>`count(distinct bot_id)::int` }).from(botFills);
      return (row?.n ?? 0) >= 290 ? row : undefined;
    });
    console.log(`bots with fills: ${firstFill.n} after ${Date.now() - t0} ms`);

    // SIGKILL w1: its bots must be leased and trading on w2/w3 within the lease time (plus a beat).
    const victim = (await handle.db.select().from(botLeases))
      .filter((l) => l.owner === 'w1')
      .map((l) => l.botId);
    expect(victim.length).toBe(100);
    const killedAt = Date.now();
    killGroup(workers.get('w1')!.child, 'SIGKILL');
    await exited(workers.get('w1')!.child);
    workers.delete('w1');
    const takenOverMs = await until('w1 bots leased by w2/w3', 4 * LEASE_MS, async () => {
      const rows = await handle.db.select().from(botLeases).where(inArray(botLeases.botId, victim));
      const moved = rows.filter((r) => r.owner === 'w2' || r.owner === 'w3').length;
      return moved === victim.length ? Date.now() - killedAt : undefined;
    });
    console.log(`w1's 100 bots leased by w2/w3 ${takenOverMs} ms after the kill (lease ${LEASE_MS} ms)`);
    expect(takenOverMs).toBeLessThan(LEASE_MS + LEASE_MS / 3 + 2_000);
    const tradedMs = await until('every w1 bot trades again', 60_000, async () => {
      const [row] = await handle.db
        .select({ n: sql<number>`count(distinct bot_id)::int` })
        .from(botFills)
        .where(sql`${inArray(botFills.botId, victim)} and ${botFills.timeMs} > ${killedAt}`);
      return row?.n === victim.length ? Date.now() - killedAt : undefined;
    });
    console.log(`every one of w1's bots filled again ${tradedMs} ms after the kill`);
    const after = await leaseCounts();
    expect([after.get('w2'), after.get('w3')]).toEqual([150, 150]);

    // Redis restarts; commands sent while it is down reach their bots through the database.
    redis.kill('SIGKILL');
    await exited(redis);
    const stopped = botIds.filter((id) => !victim.includes(id)).slice(0, 12);
    const commandIds: number[] = [];
    for (const [i, botId] of stopped.entries()) {
      const route = i % 2 === 0 ? 'stopbot' : 'stopbotwithsell';
      const response = await fetch(`http://127.0.0.1:${api.port}/api/${route}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ownerOfBot.get(botId)!.token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ botID: botId }),
      });
      expect(response.status, await response.text()).toBe(200);
    }
    for (const row of await handle.db.select().from(botCommands).where(inArray(botCommands.botId, stopped)))
      commandIds.push(row.id);
    expect(commandIds.length).toBe(stopped.length);
    redis = await startRedis(redisPort);
    const appliedMs = await until('commands sent during the outage applied', 30_000, async () => {
      const rows = await handle.db.select().from(botCommands).where(inArray(botCommands.id, commandIds));
      return rows.every((r) => r.status === 'done') ? Date.now() - killedAt : undefined;
    });
    const stoppedRows = await handle.db.select().from(bots).where(inArray(bots.id, stopped));
    expect(stoppedRows.map((b) => b.status)).toEqual(stopped.map(() => 'Stopped'));
    // After the restart the bus carries ticks and wake-ups again.
    await until('workers ready on the restarted redis', 30_000, async () => {
      for (const worker of workers.values()) {
        const response = await fetch(`http://127.0.0.1:${worker.port}/readyz`);
        if (!response.ok) return undefined;
      }
      return true;
    });
    const resumedAt = Date.now();
    await until('fills after the redis restart', 30_000, async () => {
      const [row] = await handle.db
        .select({ n: sql<number>`count(*)::int` })
        .from(botFills)
        .where(sql`${botFills.timeMs} > ${resumedAt}`);
      return (row?.n ?? 0) > 10 ? true : undefined;
    });
    console.log(`all ${commandIds.length} commands of the outage applied; trading resumed`);
    void appliedMs;

    // A fourth worker joins (three live ones with w1 dead): 288 active bots rebalance to 96 each.
    await startWorker('w4');
    const balanced = await until('rebalanced over 4 workers', 30_000, async () => {
      const counts = await leaseCounts();
      const values = ['w2', 'w3', 'w4'].map((w) => counts.get(w) ?? 0);
      return values.every((n) => n === 96) ? values : undefined;
    });
    expect(balanced).toEqual([96, 96, 96]);
    const metrics = await (await fetch(`http://127.0.0.1:${workers.get('w2')!.port}/metrics`)).text();
    expect(metrics).toMatch(/gridbot_bots_owned\{role="worker"\} 96/);
    expect(metrics).toMatch(/gridbot_tick_to_order_seconds_count\{role="worker"\} [1-9]/);
    expect(metrics).toMatch(/gridbot_db_write_seconds_count\{[^}]*kind="intents"[^}]*\} [1-9]/);
    const takeovers = Number(
      /gridbot_lease_takeovers_total\{role="worker"\} (\d+)/.exec(
        metrics + (await (await fetch(`http://127.0.0.1:${workers.get('w3')!.port}/metrics`)).text()),
      )?.[1] ?? 0,
    );
    expect(takeovers).toBeGreaterThan(0);
    await sleep(3_000);
    // A lease that lapsed under load (its renewal late) leaves its bot's order unsent and the intent unknown until
    // the bot's next owner looks it up (§3): the books are compared once no intent is left in doubt.
    await until('no intent in doubt', 60_000, async () => {
      const [row] = await handle.db
        .select({ n: sql<number>`count(*)::int` })
        .from(botIntents)
        .where(sql`${botIntents.status} = 'unknown'`);
      return row?.n === 0 ? true : undefined;
    });

    // Graceful shutdown hands the leases back; then the books must add up.
    for (const worker of workers.values()) killGroup(worker.child, 'SIGTERM');
    await Promise.all([...workers.values()].map((w) => exited(w.child)));
    const held = await handle.db.select().from(botLeases).where(sql`${botLeases.owner} is not null`);
    expect(held).toEqual([]);
    for (const proc of [api, market]) killGroup(proc.child, 'SIGTERM');
    await Promise.all([exited(api.child), exited(market.child)]);

    const intents = await handle.db.select().from(botIntents);
    const fills = await handle.db.select().from(botFills);
    const orders = await handle.db.select().from(paperOrders);
    // No client order id twice: one venue order per id, one fill per filled order, every order an intent's.
    expectOrdersMatchIntents(intents, fills, orders);

    // Each user's paper ledger equals that user's bots' fills, to the cent.
    const store = new PaperExchange({ store: new SqlPaperStore(handle.db), feed: new ManualFeed() }).store;
    const symbolOf = new Map(
      (await handle.db.select({ id: bots.id, symbol: bots.symbol }).from(bots)).map((b) => [b.id, b.symbol]),
    );
    const coinFee = new Map(orders.map((o) => [o.clientOrderId, o.feeAsset === 'USDT' ? '0' : o.fee]));
    for (const user of users) {
      const ledger = await store.ledger(user.id);
      const mine = fills.filter((f) => f.userId === user.id);
      const sum = (asset: string) =>
        ledger.filter((l) => l.asset === asset).reduce((s, l) => s.plus(l.amount), money(0));
      // A buy pays its quote and its fee comes out of the coin bought (docs/trading-rules.md §3).
      const usdt = mine.reduce(
        (s, f) => (f.side === 'buy' ? s.minus(f.quote) : s.plus(f.quote).minus(f.fee)),
        money(10_000),
      );
      expect(sum('USDT').toFixed(2)).toBe(usdt.toFixed(2));
      for (const symbol of SYMBOLS) {
        const base = symbol.replace(/USDT$/, '');
        const qty = mine
          .filter((f) => symbolOf.get(f.botId) === symbol)
          .reduce(
            (s, f) =>
              f.side === 'buy' ? s.plus(f.qty).minus(coinFee.get(f.clientOrderId) ?? '0') : s.minus(f.qty),
            money(0),
          );
        expect(sum(base).toFixed(8), `${user.id} ${base}`).toBe(qty.toFixed(8));
      }
    }
    console.log(`scale-out test: ${fills.length} fills, ${orders.length} orders, ${Date.now() - t0} ms`);
  }, 300_000);
});
