import { resolve } from 'node:path';
import { botFills, bots, users } from '@gridbot/db';
import { PaperExchange } from '@gridbot/exchange';
import { eventually, ManualFeed } from '@gridbot/exchange/testing';
import type { TopBot } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { runnerSettled } from '../../testing/waits';
import { SqlPaperStore } from '../paper/sql-paper-store.repo';
import { DEMO_ACCOUNT, seedDemoAccount } from './demo-seed';
import { DEMO_TRADER, DEMO_TRADER_BOTS, seedDemoTrader } from './demo-traders';

// The shipped candles, from the repository root whatever directory the test runs in.
const HISTORY = resolve(__dirname, '../../../../../fixtures/history');

describe('demo sample trader', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('fills Copy BOTs on a fresh install with backtested bots, marked as demo, in an order that holds', async () => {
    const paper = new PaperExchange({ store: new SqlPaperStore(t.deps.db), feed: t.feed });
    await seedDemoAccount(t.deps, paper, HISTORY);
    const [trader] = await t.deps.db.select().from(users).where(eq(users.email, DEMO_TRADER.email));
    const rows = await t.deps.db.select().from(bots).where(eq(bots.userId, trader!.id));
    expect(rows.map((r) => r.symbol).sort()).toEqual(DEMO_TRADER_BOTS.map((b) => b.symbol).sort());
    for (const row of rows) {
      expect(row.status).toBe('Live');
      // Its history is the backtest's fills, from its start on.
      const fills = await t.deps.db.select().from(botFills).where(eq(botFills.botId, row.id));
      expect(fills.length).toBeGreaterThan(0);
      expect(Math.min(...fills.map((f) => f.timeMs))).toBeGreaterThanOrEqual(row.createdAt.getTime());
      expect(Math.max(...fills.map((f) => f.timeMs))).toBeLessThanOrEqual(t.clock.now().getTime());
    }

    const login = await call(t, 'POST', '/api/cyborxlogin', {
      email: DEMO_ACCOUNT.email,
      password: DEMO_ACCOUNT.password,
    });
    const auth = { token: String(login.body.token) };
    const read = async () =>
      (await call(t, 'GET', '/api/livebotdata', undefined, auth)).body.bots as TopBot[];
    const first = await read();
    expect(first.length).toBeGreaterThan(0);
    for (const card of first) {
      expect(card).toMatchObject({ demo: true, copyCount: 0 });
      expect(card.roi).toBeGreaterThan(0);
      expect(card.runtime).toBeGreaterThanOrEqual(1);
    }
    const order = first.map((b) => b.name);
    expect((await read()).map((b) => b.name)).toEqual(order);
    expect((await read()).map((b) => b.name)).toEqual(order);
  });

  it('is not seeded in production', async () => {
    const production = { ...t.deps, config: { ...t.deps.config, production: true } };
    await t.deps.db.delete(users).where(eq(users.email, DEMO_TRADER.email));
    const paper = new PaperExchange({ store: new SqlPaperStore(t.deps.db), feed: t.feed });
    expect(await seedDemoTrader(production, paper, HISTORY)).toEqual({ created: false });
  });
});

describe('demo sample trader on the market', () => {
  const prices = { ETHUSDT: 3000, BTCUSDT: 90_000, BNBUSDT: 600, SOLUSDT: 150, XRPUSDT: 2 };
  let t: TestApp<ManualFeed>;
  beforeAll(async () => {
    const start = Object.fromEntries(Object.entries(prices).map(([s, p]) => [`spot:${s}`, String(p)]));
    t = await createTestApp({}, { feed: new ManualFeed(start) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('trades on from its backtested state: its paper account holds what the lots bought', async () => {
    const paper = new PaperExchange({ store: new SqlPaperStore(t.deps.db), feed: t.feed });
    await seedDemoTrader(t.deps, paper, HISTORY);
    const [trader] = await t.deps.db.select().from(users).where(eq(users.email, DEMO_TRADER.email));
    const seeded = await t.deps.db.select().from(bots).where(eq(bots.userId, trader!.id));
    const fillsOf = (botId: string) => t.deps.db.select().from(botFills).where(eq(botFills.botId, botId));
    const before = new Map(
      await Promise.all(seeded.map(async (r) => [r.id, (await fillsOf(r.id)).length] as const)),
    );
    // A fall that buys the next grids, then a rise and a pullback that take the (trailing) profits, on every pair.
    for (const factor of [0.97, 0.94, 0.9, 1.0, 1.05, 1.1, 1.15, 1.13]) {
      for (const [symbol, price] of Object.entries(prices))
        t.feed.setPrice(symbol, 'spot', String(price * factor));
      for (const row of seeded) await runnerSettled(t.supervisor, row.id);
    }
    await eventually(async () => {
      const rows = await t.deps.db.select().from(bots).where(eq(bots.userId, trader!.id));
      for (const row of rows)
        expect([row.symbol, row.status, row.haltReason]).toEqual([row.symbol, 'Live', null]);
      const traded = await Promise.all(
        rows.map(async (r) => (await fillsOf(r.id)).length > before.get(r.id)!),
      );
      expect(rows.filter((_, i) => !traded[i]).map((r) => r.symbol)).toEqual([]);
    });
  });
});
