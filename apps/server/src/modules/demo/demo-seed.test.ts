import { bots, users } from '@gridbot/db';
import { PaperExchange } from '@gridbot/exchange';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { SqlPaperStore } from '../paper/sql-paper-store.repo';
import { ledgerProblems } from '../platform/testing/ledger-checks';
import { platform } from '../platform/testing/platform-fixtures';
import { DEMO_ADMIN, seedDemoAdmin } from './demo-admin';
import { DEMO_FRIEND } from './demo-platform';
import { DEMO_ACCOUNT, seedDemoAccount } from './demo-seed';

const list = { filters: {}, limit: 10, page: 1 };

describe('demo account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is created once, with three bots and a cycle running', async () => {
    const paper = new PaperExchange({ store: new SqlPaperStore(t.deps.db), feed: t.feed });
    expect(await seedDemoAccount(t.deps, paper)).toEqual({ created: true });
    expect(await seedDemoAccount(t.deps, paper)).toEqual({ created: false });
    const [demo] = await t.deps.db.select().from(users).where(eq(users.email, DEMO_ACCOUNT.email));
    const rows = await t.deps.db.select().from(bots).where(eq(bots.userId, demo!.id));
    expect(rows.map((r) => `${r.botType} ${r.symbol} ${r.status}`).sort()).toEqual([
      'cycle LTCUSDT Live',
      'multigrid BTCUSDT Live',
      'multigrid ETHUSDT Live',
      'scalping SOLUSDT Live',
    ]);
    expect(DEMO_ACCOUNT.email).toBe('demo@gridbot.local');
  });

  it('has platform balances, an Active subscription and a referral reward when subscriptions are on', async () => {
    const login = await call(t, 'POST', '/api/cyborxlogin', {
      email: DEMO_ACCOUNT.email,
      password: DEMO_ACCOUNT.password,
    });
    const token = String(login.body.token);
    const me = await call(t, 'GET', '/api/me', undefined, { token });
    // 500 USDT − the Starter plan (100); its 300 profit limit on top of the free 100; 10 % of the friend's Pro.
    expect(me.body.user).toMatchObject({
      usdtToken: '400',
      ifcToken: '200',
      usdtRewardToken: '50',
      availableCredit: '400',
      isActiveSubscription: true,
    });
    const subs = await platform(t, '/subscription/list', token, list);
    expect(subs.body.data).toMatchObject({ records: [{ planName: 'Starter', status: 'Active' }] });
    const rewards = await platform(t, '/level-income/list', token, list);
    expect(rewards.body.data).toMatchObject({
      records: [{ amount: '50', percentage: 10, level: 1, fromUserName: DEMO_FRIEND.username }],
    });
    const [demo] = await t.deps.db.select().from(users).where(eq(users.email, DEMO_ACCOUNT.email));
    const [friend] = await t.deps.db.select().from(users).where(eq(users.email, DEMO_FRIEND.email));
    expect(friend?.referredBy).toBe(demo?.id);
    for (const u of [demo, friend]) expect(await ledgerProblems(t, u?.id ?? '')).toEqual([]);
  });
});

describe('demo administrator', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is seeded with the demo account, so /admin opens on a default install', async () => {
    const paper = new PaperExchange({ store: new SqlPaperStore(t.deps.db), feed: t.feed });
    await seedDemoAccount(t.deps, paper);
    const login = await call(t, 'POST', '/api/cyborxlogin', {
      email: DEMO_ADMIN.email,
      password: DEMO_ADMIN.password,
    });
    const token = String(login.body.token);
    expect((await call(t, 'GET', '/api/me', undefined, { token })).body.user).toMatchObject({
      role: 'admin',
    });
    expect((await call(t, 'GET', '/api/admin/withdrawals', undefined, { token })).status).toBe(200);
    const demo = await call(t, 'POST', '/api/cyborxlogin', {
      email: DEMO_ACCOUNT.email,
      password: DEMO_ACCOUNT.password,
    });
    const demoToken = String(demo.body.token);
    expect((await call(t, 'GET', '/api/admin/withdrawals', undefined, { token: demoToken })).status).toBe(
      404,
    );
  });

  it('is not seeded in production', async () => {
    const production = { ...t.deps, config: { ...t.deps.config, production: true } };
    await t.deps.db.delete(users).where(eq(users.email, DEMO_ADMIN.email));
    expect(await seedDemoAdmin(production)).toEqual({ created: false });
  });
});

describe('demo account with subscriptions off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ subscriptionEnabled: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it('gets no platform data and no referred friend', async () => {
    const paper = new PaperExchange({ store: new SqlPaperStore(t.deps.db), feed: t.feed });
    expect(await seedDemoAccount(t.deps, paper)).toEqual({ created: true });
    expect(await t.deps.db.select().from(users).where(eq(users.email, DEMO_FRIEND.email))).toEqual([]);
    const login = await call(t, 'POST', '/api/cyborxlogin', {
      email: DEMO_ACCOUNT.email,
      password: DEMO_ACCOUNT.password,
    });
    const me = await call(t, 'GET', '/api/me', undefined, { token: String(login.body.token) });
    expect(me.body.user).not.toHaveProperty('usdtToken');
  });
});

describe('demo account in Binance mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ exchange: 'binance' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is created without paper keys or bots, so a Binance-mode start never fails on it', async () => {
    const paper = new PaperExchange({ store: new SqlPaperStore(t.deps.db), feed: t.feed });
    expect(await seedDemoAccount(t.deps, paper)).toEqual({ created: true });
    expect(await t.deps.db.select().from(bots)).toEqual([]);
    const [demo] = await t.deps.db.select().from(users).where(eq(users.email, DEMO_ACCOUNT.email));
    expect(demo).toBeDefined();
  });
});
