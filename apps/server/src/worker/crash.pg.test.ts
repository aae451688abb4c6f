import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { botFills, botIntents, createTestDb, type DbHandle, paperOrders } from '@gridbot/db';
import { PaperExchange } from '@gridbot/exchange';
import { ManualFeed } from '@gridbot/exchange/testing';
import { money } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { SqlPaperStore } from '../modules/paper/sql-paper-store';
import { insertBot, insertCycle, insertUserWithKeys } from '../testing/bot-fixtures';
import { freePort } from '../testing/free-port';

// Issues #6 and #7: the server is killed with SIGKILL at random moments while a bot or a cycle trades; after every restart no
// order is doubled, no fill is lost, and the paper ledger still equals the bot's fills. PostgreSQL only
// (`npm run test:pg`): a crash of the embedded PGlite is a different question (its own durability).
const MASTER_KEY = 'cd'.repeat(32);
const KILLS = 20;
const serverMain = fileURLToPath(new URL('../main.ts', import.meta.url));
const dataDir = fileURLToPath(new URL('../../../../../shared/data', import.meta.url));

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn('npx', ['tsx', serverMain], {
    env: {
      ...process.env,
      DATABASE_URL: handle.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      MASTER_KEY,
      SEED_DEMO: 'false',
      MARKET_FEED: 'replay',
      MARKET_REPLAY_DIR: dataDir,
      MARKET_SPEED: '20000',
      LOG_LEVEL: 'error',
    },
    stdio: 'ignore',
    detached: true, // its own process group, so SIGKILL reaches tsx's node child too
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server did not start');
}

const kill = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    process.kill(-(child.pid as number), signal);
  });

/** After the kills: no open intent, the venue's filled orders are the bot's fills, its books equal them. */
async function expectConsistent(userId: string, botId: string, base: string) {
  const intents = await handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));
  const fills = await handle.db.select().from(botFills).where(eq(botFills.botId, botId));
  const orders = await handle.db.select().from(paperOrders).where(eq(paperOrders.userId, userId));
  expect(fills.length).toBeGreaterThan(0);
  expect(intents.filter((i) => i.status === 'pending' || i.status === 'unknown')).toEqual([]);

  // Every order the venue filled is one fill of the bot under the same client order id, and back.
  const filled = orders
    .filter((o) => o.status === 'FILLED')
    .map((o) => o.clientOrderId)
    .sort();
  expect(fills.map((f) => f.clientOrderId).sort()).toEqual(filled);
  const intentIds = new Set(intents.map((i) => i.clientOrderId));
  expect(orders.every((o) => intentIds.has(o.clientOrderId))).toBe(true);

  // The venue's books equal the bot's fills to the cent.
  const store = new PaperExchange({ store: new SqlPaperStore(handle.db), feed: new ManualFeed() }).store;
  const ledger = await store.ledger(userId);
  const sum = (asset: string) =>
    ledger.filter((l) => l.asset === asset).reduce((s, l) => s.plus(l.amount), money(0));
  const usdt = fills.reduce(
    (s, f) => (f.side === 'buy' ? s.minus(f.quote).minus(f.fee) : s.plus(f.quote).minus(f.fee)),
    money(10_000),
  );
  const held = fills.reduce((s, f) => (f.side === 'buy' ? s.plus(f.qty) : s.minus(f.qty)), money(0));
  expect(sum('USDT').toFixed(2)).toBe(usdt.toFixed(2));
  expect(sum(base).toFixed(8)).toBe(held.toFixed(8));
  return fills;
}

/** Kills the server `kills` times at random moments, then lets a last run reconcile and stop cleanly. */
async function killRepeatedly(port: number, kills: number) {
  for (let i = 0; i < kills; i += 1) {
    const child = await startServer(port);
    await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 1500));
    await kill(child, 'SIGKILL');
  }
  const last = await startServer(port);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  await kill(last, 'SIGTERM');
}

describe('SIGKILL while bots trade', () => {
  it(`loses no fill and doubles no order over ${KILLS} kills`, async () => {
    const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.from(MASTER_KEY, 'hex')));
    const botId = await insertBot(handle.db, userId, { symbol: 'ETHUSDT', investment: 1000 });
    await killRepeatedly(await freePort(), KILLS);
    await expectConsistent(userId, botId, 'ETH');
  }, 600_000);

  it('a cycle killed while holding buys once, and keeps its books after restarts (issue #7)', async () => {
    const port = await freePort();
    // The replay restarts at the same candle on every start: read where it begins.
    const probe = await startServer(port);
    const tickers = (await (await fetch(`http://127.0.0.1:${port}/api/tickers`)).json()) as {
      tickers: { symbol: string; price: string }[];
    };
    await kill(probe, 'SIGTERM');
    const p0 = Number(tickers.tickers.find((t) => t.symbol === 'SOLUSDT')?.price);
    expect(p0).toBeGreaterThan(0);

    const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.from(MASTER_KEY, 'hex')));
    // Buys at once (the price is below the buy price), then sells and buys again as the replay moves.
    const cycleId = await insertCycle(handle.db, userId, {
      symbol: 'SOLUSDT',
      buyPrice: p0 * 1.001,
      sellPrice: p0 * 1.003,
      cycles: 1000,
      amount: 200,
    });
    await killRepeatedly(port, 8);
    const fills = await expectConsistent(userId, cycleId, 'SOL');
    // A cycle alternates: buy, sell, buy, … — a doubled buy would break the pattern.
    fills
      .sort((a, b) => a.seq - b.seq)
      .forEach((f, i) => {
        expect(f.side).toBe(i % 2 === 0 ? 'buy' : 'sell');
      });
  }, 600_000);
});
