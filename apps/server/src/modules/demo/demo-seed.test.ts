import { bots } from '@gridbot/db';
import { PaperExchange } from '@gridbot/exchange';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { SqlPaperStore } from '../paper/sql-paper-store';
import { DEMO_ACCOUNT, seedDemoAccount } from './demo-seed';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('demo account', () => {
  it('is created once, with three bots and a cycle running', async () => {
    const paper = new PaperExchange({ store: new SqlPaperStore(t.deps.db), feed: t.feed });
    expect(await seedDemoAccount(t.deps, paper)).toEqual({ created: true });
    expect(await seedDemoAccount(t.deps, paper)).toEqual({ created: false });
    const rows = await t.deps.db.select().from(bots);
    expect(rows.map((r) => `${r.botType} ${r.symbol} ${r.status}`).sort()).toEqual([
      'cycle XRPUSDT Live',
      'multigrid BTCUSDT Live',
      'multigrid ETHUSDT Live',
      'scalping SOLUSDT Live',
    ]);
    expect(DEMO_ACCOUNT.email).toBe('demo@gridbot.local');
  });
});
