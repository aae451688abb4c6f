import { botFills, botIntents, botLeases, bots, createTestDb, type DbHandle, paperOrders } from '@gridbot/db';
import { type Exchange, PaperExchange } from '@gridbot/exchange';
import { eventually, ManualFeed } from '@gridbot/exchange/testing';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { ensureLease } from '../modules/bots';
import { paperGateway } from '../modules/exchange/exchange-gateway';
import { SqlPaperStore } from '../modules/paper/sql-paper-store.repo';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { runnerSettled } from '../testing/waits';
import { BotSupervisor } from './bot-supervisor';
import { onFaultPoint } from './fault-points';
import { LeaseCoordinator } from './lease-coordinator';
import * as leases from './leases.repo';

// Fenced leases: a worker that paused past its lease (its renewals stopped, like a frozen process) while another
// worker took its bot over wakes and tries to book and to trade. Every write it tries is refused by the lease's
// fencing token, it lets the bot go, no order goes out twice and the bot's books equal the paper exchange.
// Two workers in one process on one database; the row locks between concurrent writers and claims are
// covered on PostgreSQL by lease-fence.pg.test.ts.
const LEASE_MS = 600;
let handle: DbHandle;
const secrets = SecretBox.fromKey(Buffer.alloc(32, 5));

beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

interface WorkerOptions {
  /** Wraps each user's exchange (a venue whose answers are held back). */
  venue?: (exchange: Exchange) => Exchange;
  /**
   * The local deadline passes its check whatever the time: a process that paused right after checking it.
   * The fencing token is then all that stands between it and the bot.
   */
  trustsLeaseForEver?: boolean;
  /** Whether the local deadline is (also) taken to have passed, whatever the coordinator says. */
  lapsed?: () => boolean;
}

function worker(workerId: string, options: WorkerOptions = {}) {
  const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
  const paper = new PaperExchange({ store: new SqlPaperStore(handle.db), feed });
  const gateway = paperGateway(paper);
  const venue = options.venue ?? ((exchange: Exchange) => exchange);
  const coordinator = new LeaseCoordinator({
    db: handle.db,
    workerId,
    leaseMs: LEASE_MS,
    pollMs: 200,
    log: () => {},
  });
  const lapsed = options.lapsed ?? (() => false);
  const hooks = options.trustsLeaseForEver
    ? { ...coordinator.hooks, mayRun: () => true }
    : { ...coordinator.hooks, mayRun: (botId: string) => !lapsed() && coordinator.hooks.mayRun(botId) };
  const supervisor = new BotSupervisor({
    db: handle.db,
    feed,
    exchanges: { ...gateway, forUser: (userId, keys) => venue(gateway.forUser(userId, keys)) },
    loadKeys: async () => ({ apiKey: 'k', secret: 's' }),
    now: () => Date.now(),
    log: () => {},
    leases: hooks,
    reconcileDelayMs: () => 50,
  });
  return {
    feed,
    coordinator,
    supervisor,
    start: () => coordinator.start(supervisor),
    /** No more beats: its leases run out and another worker may take its bots. */
    freeze: () => {
      (coordinator as unknown as { stopped: boolean }).stopped = true;
    },
    async stop() {
      await coordinator.stop();
      await supervisor.stop();
    },
  };
}

const fillsOf = (botId: string) =>
  handle.db.select().from(botFills).where(eq(botFills.botId, botId)).orderBy(asc(botFills.seq));
const ordersOf = (userId: string) =>
  handle.db.select().from(paperOrders).where(eq(paperOrders.userId, userId));
const intentsOf = (botId: string) => handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));
const botRow = async (botId: string) => (await handle.db.select().from(bots).where(eq(bots.id, botId)))[0]!;

/** The bot's row once its state version has held still for 300 ms: its holder's own writes are done. */
async function quietRow(botId: string) {
  let before = await botRow(botId);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const now = await botRow(botId);
    if (now.stateVersion === before.stateVersion) return now;
    before = now;
  }
}
const leaseOf = async (botId: string) =>
  (await handle.db.select().from(botLeases).where(eq(botLeases.botId, botId)))[0];

/** The bot ends, so that the workers of the next test leave it alone. */
async function retire(botId: string) {
  await handle.db.update(bots).set({ status: 'Stopped' }).where(eq(bots.id, botId));
  await handle.db.delete(botLeases).where(eq(botLeases.botId, botId));
}

/** The bot's books equal the paper exchange: one fill per filled order, same id, quantity and quote. */
async function expectBooksEqualExchange(botId: string, userId: string) {
  const fills = (await fillsOf(botId)).map((f) => ({
    id: f.clientOrderId,
    qty: Number(f.qty),
    quote: Number(f.quote),
  }));
  const orders = (await ordersOf(userId))
    .filter((o) => o.status === 'FILLED')
    .map((o) => ({ id: o.clientOrderId, qty: Number(o.filledQuantity), quote: Number(o.filledQuote) }));
  expect(fills).toEqual(orders);
  expect((await botRow(botId)).fillCount).toBe(fills.length);
}

describe('fenced bot leases', () => {
  it('gives every claim by another worker a new fencing token, and keeps it on renewal', async () => {
    const userId = await insertUserWithKeys(handle.db, secrets);
    const botId = await insertBot(handle.db, userId, { investment: 100 });
    await ensureLease(handle.db, botId);
    const first = (await leaseOf(botId))!.epoch;
    const byW1 = await leases.claimLease(handle.db, 'w1', botId, LEASE_MS);
    expect(byW1).toBeGreaterThan(first);
    expect((await leases.renewLeases(handle.db, 'w1', LEASE_MS)).get(botId)).toBe(byW1);
    // Expired and taken again by its own holder (nobody held it between): the same token.
    await handle.db
      .update(botLeases)
      .set({ expiresAt: new Date(0) })
      .where(eq(botLeases.botId, botId));
    expect(await leases.claimLease(handle.db, 'w1', botId, LEASE_MS)).toBe(byW1);
    // Taken over by another worker: a new one. Released and claimed again: a new one.
    await handle.db
      .update(botLeases)
      .set({ expiresAt: new Date(0) })
      .where(eq(botLeases.botId, botId));
    const byW2 = await leases.claimLease(handle.db, 'w2', botId, LEASE_MS);
    expect(byW2).toBeGreaterThan(byW1!);
    await leases.releaseLeases(handle.db, 'w2', [botId]);
    expect(await leases.claimLease(handle.db, 'w2', botId, LEASE_MS)).toBeGreaterThan(byW2!);
    // A row deleted and created again never hands out an old token.
    await leases.dropLease(handle.db, 'w2', botId);
    await ensureLease(handle.db, botId);
    expect((await leaseOf(botId))!.epoch).toBeGreaterThan(byW2!);
    await retire(botId);
  });

  it('refuses the fill booking of a worker that wakes after its bot was taken over; the fill is booked once', async () => {
    const userId = await insertUserWithKeys(handle.db, secrets);
    const botId = await insertBot(handle.db, userId, { investment: 100 });
    // The venue fills a's buy, and its answer reaches a only once the test lets it.
    let deliver: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      deliver = resolve;
    });
    const a = worker('fa', {
      venue: (exchange) =>
        new Proxy(exchange, {
          get(target, key) {
            if (key === 'placeOrder')
              return async (input: Parameters<Exchange['placeOrder']>[0]) => {
                const order = await target.placeOrder(input);
                await answered;
                return order;
              };
            const value = Reflect.get(target, key, target);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        }),
    });
    await a.start();
    await eventually(async () => expect(a.supervisor.runner(botId)).toBeDefined(), 5_000);
    // A tick is ignored while a worker's lease is past its local deadline (a beat late on a busy machine): the
    // price is set again until the bot acted on it.
    await eventually(async () => {
      await a.feed.setPrice('ETHUSDT', 'spot', '2000');
      expect(await ordersOf(userId)).toHaveLength(1);
    }, 5_000);
    expect(await fillsOf(botId)).toEqual([]);

    // a pauses with the answer in flight; b takes the expired lease, finds the filled buy and books it.
    a.freeze();
    const b = worker('fb');
    await b.start();
    await eventually(async () => expect(await fillsOf(botId)).toHaveLength(1), 5_000);
    await eventually(async () => expect(b.supervisor.runner(botId)).toBeDefined());
    expect((await leaseOf(botId))?.owner).toBe('fb');
    // The holder's own writes after the booking (its state with the reconciled fill) are done before the
    // state is taken as the reference a stale write must not move.
    await runnerSettled(b.supervisor, botId);
    const afterTakeover = await quietRow(botId);

    // a wakes: its booking of the same fill is refused, and it lets the bot go at once.
    deliver();
    await eventually(async () => expect(a.supervisor.runner(botId)).toBeUndefined());
    expect(a.coordinator.hooks.epochOf(botId)).toBeUndefined();
    expect(await fillsOf(botId)).toHaveLength(1);
    const now = await botRow(botId);
    expect(now.stateVersion).toBe(afterTakeover.stateVersion);
    expect(now.engineState).toEqual(afterTakeover.engineState);
    expect(await ordersOf(userId)).toHaveLength(1);
    await expectBooksEqualExchange(botId, userId);

    // b trades on: its next buy is booked as usual (1975 crosses grid 2's level, 1 % below 2000, and not grid
    // 3's, 1 % below that: a paper bot acts at every level its line crosses).
    await eventually(async () => {
      await b.feed.setPrice('ETHUSDT', 'spot', '1975');
      expect(await fillsOf(botId)).toHaveLength(2);
    }, 5_000);
    await expectBooksEqualExchange(botId, userId);
    await b.stop();
    await a.stop();
    await retire(botId);
  });

  it('refuses the intent of a worker that trades on after its bot was taken over; it sends nothing', async () => {
    const userId = await insertUserWithKeys(handle.db, secrets);
    const botId = await insertBot(handle.db, userId, { investment: 100 });
    const c = worker('fc', { trustsLeaseForEver: true });
    await c.start();
    await eventually(async () => expect(c.supervisor.runner(botId)).toBeDefined(), 5_000);

    c.freeze();
    const d = worker('fd');
    await d.start();
    await eventually(async () => expect(d.supervisor.runner(botId)).toBeDefined(), 5_000);
    expect((await leaseOf(botId))?.owner).toBe('fd');

    // c wakes to a tick that makes its bot buy: the intent write is refused, so the order never goes out.
    await c.feed.setPrice('ETHUSDT', 'spot', '2000');
    await eventually(async () => expect(c.supervisor.runner(botId)).toBeUndefined());
    expect(await intentsOf(botId)).toEqual([]);
    expect(await ordersOf(userId)).toEqual([]);
    expect((await botRow(botId)).stateVersion).toBe(0);

    // d, the lease's holder, trades the same tick: one intent, one order, one fill.
    await eventually(async () => {
      await d.feed.setPrice('ETHUSDT', 'spot', '2000');
      expect(await fillsOf(botId)).toHaveLength(1);
    }, 5_000);
    expect(await intentsOf(botId)).toHaveLength(1);
    expect(await ordersOf(userId)).toHaveLength(1);
    await expectBooksEqualExchange(botId, userId);
    await d.stop();
    await c.stop();
  });

  it('holds an order back when the lease passes its local deadline after the intent was written', async () => {
    const userId = await insertUserWithKeys(handle.db, secrets);
    const botId = await insertBot(handle.db, userId, { investment: 100 });
    // The lease is trusted until the buy's intent is written, then no longer (a beat late), then again.
    let lapsed = false;
    const e = worker('fe', { lapsed: () => lapsed });
    onFaultPoint((point, detail) => {
      if (point === 'intent-written' && detail.botId === botId) lapsed = true;
    });
    try {
      await e.start();
      await eventually(async () => expect(e.supervisor.runner(botId)).toBeDefined(), 5_000);
      await eventually(async () => {
        await e.feed.setPrice('ETHUSDT', 'spot', '2000');
        expect(lapsed).toBe(true);
      }, 5_000);
      // Not sent: its outcome is unknown to the bot until it has asked the exchange.
      await eventually(async () => expect((await intentsOf(botId))[0]?.status).toBe('unknown'));
      expect(await ordersOf(userId)).toEqual([]);

      // Trusted again: the bot asks the exchange, finds no order and sends it, once.
      lapsed = false;
      await eventually(async () => expect(await fillsOf(botId)).toHaveLength(1), 5_000);
      expect(await ordersOf(userId)).toHaveLength(1);
      await expectBooksEqualExchange(botId, userId);
    } finally {
      onFaultPoint(() => {});
      await e.stop();
      await retire(botId);
    }
  });
});
