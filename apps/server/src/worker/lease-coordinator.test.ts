import {
  botCommands,
  botFills,
  botLeases,
  bots,
  createTestDb,
  type DbHandle,
  paperOrders,
} from '@gridbot/db';
import { type Exchange, PaperExchange } from '@gridbot/exchange';
import { eventually, ManualFeed } from '@gridbot/exchange/testing';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { paperGateway } from '../modules/exchange/exchange-gateway';
import { SqlPaperStore } from '../modules/paper/sql-paper-store.repo';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { BotSupervisor } from './bot-supervisor';
import { LeaseCoordinator } from './lease-coordinator';

// Leases of scale-out workers, two workers in one process on one database: fair share, takeover of
// an expired lease, the loser stops trading, graceful hand-back. The multi-process test is scale-out.pg.test.ts.
const LEASE_MS = 600;
let handle: DbHandle;
const secrets = SecretBox.fromKey(Buffer.alloc(32, 4));

beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

/** `venue` wraps each user's exchange (a venue whose answers get lost). */
function worker(
  workerId: string,
  venue: (exchange: Exchange) => Exchange = (exchange) => exchange,
  log: (message: string) => void = () => {},
) {
  const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
  const paper = new PaperExchange({ store: new SqlPaperStore(handle.db), feed });
  const gateway = paperGateway(paper);
  const coordinator = new LeaseCoordinator({
    db: handle.db,
    workerId,
    leaseMs: LEASE_MS,
    pollMs: 200,
    log,
  });
  const supervisor = new BotSupervisor({
    db: handle.db,
    feed,
    exchanges: { ...gateway, forUser: (userId, keys) => venue(gateway.forUser(userId, keys)) },
    loadKeys: async () => ({ apiKey: 'k', secret: 's' }),
    now: () => Date.now(),
    log: () => {},
    leases: coordinator.hooks,
  });
  return { feed, coordinator, supervisor, start: () => coordinator.start(supervisor) };
}

async function owners(): Promise<Record<string, number>> {
  const rows = await handle.db
    .select({ owner: botLeases.owner, n: sql<number>`count(*)::int` })
    .from(botLeases)
    .groupBy(botLeases.owner);
  return Object.fromEntries(rows.map((r) => [r.owner ?? 'free', r.n]));
}

/** The bots of the tests before are stopped and their lease rows gone: a test that counts leases starts clean. */
async function retireEveryBot(): Promise<void> {
  await handle.db.update(bots).set({ status: 'Stopped' });
  await handle.db.delete(botLeases);
}

describe('bot leases', () => {
  it('spreads bots evenly, moves a silent worker’s bots and hands leases back on stop', async () => {
    const userId = await insertUserWithKeys(handle.db, secrets);
    const botIds = [];
    for (let i = 0; i < 6; i += 1) botIds.push(await insertBot(handle.db, userId, { investment: 100 }));
    const a = worker('a');
    const b = worker('b');
    await a.start();
    expect(a.supervisor.size).toBe(0); // bots launch in the background
    await eventually(async () => expect(a.supervisor.size).toBe(6));
    await b.start();
    // b joins: a hands back down to its fair share ceil(6 / 2) = 3, b claims them.
    await eventually(async () => expect(await owners()).toEqual({ a: 3, b: 3 }), 5_000);
    await eventually(async () => expect([a.supervisor.size, b.supervisor.size]).toEqual([3, 3]));

    // a goes silent (no more beats, like a frozen process): b takes its bots once the leases expire, and a,
    // once it beats again, finds them gone and stops trading them.
    const frozen = a.coordinator as unknown as { stopped: boolean };
    frozen.stopped = true;
    await eventually(async () => expect(await owners()).toEqual({ b: 6 }), 5_000);
    await eventually(async () => expect(b.supervisor.size).toBe(6));
    const aBots = a.supervisor.botIds();
    expect(aBots.every((id) => !a.coordinator.hooks.mayRun(id))).toBe(true);
    frozen.stopped = false;
    await a.coordinator.beat();
    expect(a.supervisor.botIds().filter((id) => aBots.includes(id) && b.supervisor.runner(id))).toEqual([]);

    await a.coordinator.stop();
    await a.supervisor.stop();
    await b.coordinator.stop();
    await b.supervisor.stop();
    const held = await handle.db.select().from(botLeases).where(eq(botLeases.owner, 'b'));
    expect(held).toEqual([]);
    expect((await owners()).free).toBe(6);
  });
  it('shares the bots between two workers started together, none launched on one and handed to the other', async () => {
    await retireEveryBot();
    const userId = await insertUserWithKeys(handle.db, secrets);
    for (let i = 0; i < 6; i += 1) await insertBot(handle.db, userId, { investment: 100 });
    const logs: string[] = [];
    const d = worker('d', undefined, (message) => logs.push(`d: ${message}`));
    const e = worker('e', undefined, (message) => logs.push(`e: ${message}`));
    // e comes up a moment after d, as a second process started beside the first does.
    try {
      const dStarted = d.start();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await Promise.all([dStarted, e.start()]);
      await eventually(async () => expect(await owners()).toEqual({ d: 3, e: 3 }), 5_000);
      await eventually(async () => expect([d.supervisor.size, e.supervisor.size]).toEqual([3, 3]));
      // Three beats more: the split holds, and no bot was handed back.
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS));
      expect(await owners()).toEqual({ d: 3, e: 3 });
      expect(logs.filter((line) => line.includes('handed bot leases back'))).toEqual([]);
    } finally {
      for (const w of [d, e]) {
        await w.coordinator.stop();
        await w.supervisor.stop();
      }
      await retireEveryBot();
    }
  });

  it('gives a bot started without a lease row (not through the API) a lease within a few lease times', async () => {
    const userId = await insertUserWithKeys(handle.db, secrets);
    const c = worker('c');
    await c.start();
    const botId = await insertBot(handle.db, userId, { investment: 100 });
    const leaseRow = async () => handle.db.select().from(botLeases).where(eq(botLeases.botId, botId));
    expect(await leaseRow()).toEqual([]);
    // The catch-up runs once per 4 lease times (2.4 s here), then the bot is claimed and runs.
    await eventually(async () => expect(c.supervisor.runner(botId)).toBeDefined(), 4 * LEASE_MS + 3_000);
    expect((await leaseRow())[0]?.owner).toBe('c');
    await c.coordinator.stop();
    await c.supervisor.stop();
  });

  it('keeps the lease of a Stopping bot; a worker that takes it over books the sale once', async () => {
    const userId = await insertUserWithKeys(handle.db, secrets);
    const botId = await insertBot(handle.db, userId, { investment: 100 });
    // The venue fills d's sell but its answer never comes back.
    const d = worker('d', (exchange) => ({
      ...exchange,
      placeOrder: async (input) => {
        const order = await exchange.placeOrder(input);
        return input.side === 'sell' ? new Promise<never>(() => {}) : order;
      },
      fetchOrder: (...args) => exchange.fetchOrder(...args),
    }));
    await d.start();
    await eventually(async () => expect(d.supervisor.runner(botId)).toBeDefined(), 5_000);
    d.feed.setPrice('ETHUSDT', 'spot', '2000');
    // In the order they were booked: rows come back in no set order without one (an update moves a row).
    const fills = () =>
      handle.db.select().from(botFills).where(eq(botFills.botId, botId)).orderBy(asc(botFills.seq));
    await eventually(async () => expect(await fills()).toHaveLength(1));
    await handle.db.insert(botCommands).values({ botId, type: 'stop_sell', payload: {} });
    void d.coordinator.notify(botId);
    const orders = () => handle.db.select().from(paperOrders).where(eq(paperOrders.userId, userId));
    await eventually(async () => expect(await orders()).toHaveLength(2));
    const status = async () => (await handle.db.select().from(bots).where(eq(bots.id, botId)))[0]?.status;
    expect(await status()).toBe('Stopping');
    // Stopping is not done: d keeps renewing the lease while the sale is out.
    await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS));
    const lease = async () => (await handle.db.select().from(botLeases).where(eq(botLeases.botId, botId)))[0];
    expect((await lease())?.owner).toBe('d');

    // d freezes; e takes the expired lease, finds the filled sell by its client order id and books it.
    (d.coordinator as unknown as { stopped: boolean }).stopped = true;
    const e = worker('e');
    await e.start();
    await eventually(async () => expect(await status()).toBe('Stopped'), 5_000);
    expect((await fills()).map((f) => f.side)).toEqual(['buy', 'sell']);
    expect(await orders()).toHaveLength(2);
    await eventually(async () => expect(await lease()).toBeUndefined());
    await e.coordinator.stop();
    await e.supervisor.stop();
    // d's runner waits for ever on its lost answer, like the frozen process it stands for: its timers end
    // here, its work never does.
    void d.coordinator.stop();
  });
});
