import { resolve } from 'node:path';
import { botFills, bots, users } from '@gridbot/db';
import { PaperExchange } from '@gridbot/exchange';
import type { TopBot } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { SqlPaperStore } from '../paper/sql-paper-store.repo';
import { DEMO_ACCOUNT, seedDemoAccount } from './demo-seed';
import { DEMO_TRADER, DEMO_TRADER_BOTS } from './demo-traders';

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
    const { seedDemoTrader } = await import('./demo-traders');
    const paper = new PaperExchange({ store: new SqlPaperStore(t.deps.db), feed: t.feed });
    expect(await seedDemoTrader(production, paper, HISTORY)).toEqual({ created: false });
  });
});
