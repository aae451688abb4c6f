import { platformLedger, platformSubscriptions } from '@gridbot/db';
import { platformMessages as m } from '@gridbot/shared';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformDepsOf } from '../../config/platform-runtime';
import { call } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { fund, platform, signUp } from '../platform/testing/platform-fixtures';
import { findWallet, ledgerSums } from './ledger.repo';
import { platformCredit } from './platform-credit';

const startBody = {
  botType: 'multigrid',
  selectPair: 'BTCUSDT',
  myStrategy: 'Steady Ladder 10',
  amount: 1000,
  category: 'Spot',
};

describe('profit limit (docs/product.md §5)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lowers availableCredit by booked profit, never below zero, and ends the active subscription at zero', async () => {
    const u = await signUp(t);
    await fund(t, u.id, 'usdtToken', '100');
    const plans = (await platform(t, '/subscription/plans', u.token)).body.data as {
      plans: { id: string }[];
    };
    await platform(t, '/subscription/create', u.token, { planId: plans.plans[0]?.id });
    expect((await findWallet(t.deps.db, u.id))?.availableCredit).toBe('400');

    const book = (profit: string | null) =>
      t.deps.db.transaction((tx) => platformCredit.onProfitBooked(tx, u.id, profit, 'bot'));
    expect(await book('-5')).toEqual({ exhausted: false });
    expect(await book(null)).toEqual({ exhausted: false });
    expect(await book('150.5')).toEqual({ exhausted: false });
    expect(Number((await findWallet(t.deps.db, u.id))?.availableCredit)).toBe(249.5);
    expect(await book('1000')).toEqual({ exhausted: true });
    expect(Number((await findWallet(t.deps.db, u.id))?.availableCredit)).toBe(0);
    expect(Number((await ledgerSums(t.deps.db, u.id)).availableCredit)).toBe(0);
    const [sub] = await t.deps.db
      .select()
      .from(platformSubscriptions)
      .where(eq(platformSubscriptions.userId, u.id));
    expect(sub?.status).toBe('In-Active');
    const me = await call(t, 'GET', '/api/me', undefined, { token: u.token });
    expect(me.body.user).toMatchObject({ availableCredit: '0', isActiveSubscription: false });
  });

  it('books a batch of fills at once: each takes what is left, in order, with a ledger row of its own', async () => {
    const [a, b, c] = [await signUp(t), await signUp(t), await signUp(t)];
    for (const u of [a, b, c]) await platformCredit.canStart(platformDepsOf(t.deps), u.id); // free 100 credit each
    const exhausted = await t.deps.db.transaction((tx) =>
      platformCredit.onProfitsBooked(tx, [
        { userId: a.id, profit: '30', refId: 'bot-a1' },
        { userId: b.id, profit: '-4', refId: 'bot-b1' },
        { userId: a.id, profit: '60', refId: 'bot-a2' },
        { userId: c.id, profit: '10', refId: 'bot-c1' },
        { userId: a.id, profit: '25', refId: 'bot-a3' },
        { userId: 'c0ffee00-0000-4000-8000-000000000000', profit: '5', refId: 'no-wallet' },
      ]),
    );
    expect([...exhausted]).toEqual([a.id]);
    expect((await findWallet(t.deps.db, a.id))?.availableCredit).toBe('0');
    expect((await findWallet(t.deps.db, b.id))?.availableCredit).toBe('100');
    expect((await findWallet(t.deps.db, c.id))?.availableCredit).toBe('90');
    const rows = await t.deps.db
      .select()
      .from(platformLedger)
      .where(and(eq(platformLedger.userId, a.id), eq(platformLedger.reason, 'profit_booked')))
      .orderBy(asc(platformLedger.id));
    expect(rows.map((r) => [r.refId, Number(r.delta), Number(r.balanceAfter)])).toEqual([
      ['bot-a1', -30, 70],
      ['bot-a2', -60, 10],
      ['bot-a3', -10, 0],
    ]);
    for (const u of [a, b, c])
      expect(Number((await ledgerSums(t.deps.db, u.id)).availableCredit)).toBe(
        Number((await findWallet(t.deps.db, u.id))?.availableCredit),
      );
  });

  it('refuses to start a bot at zero credit, pointing to Subscription', async () => {
    const u = await signUp(t);
    await t.deps.db.transaction((tx) => platformCredit.onProfitBooked(tx, u.id, '1', 'x')); // 99 of the free 100 left
    expect(await platformCredit.canStart(platformDepsOf(t.deps), u.id)).toBe(true);
    await t.deps.db.transaction((tx) => platformCredit.onProfitBooked(tx, u.id, '100', 'bot'));
    expect(await platformCredit.canStart(platformDepsOf(t.deps), u.id)).toBe(false);
    const res = await call(t, 'POST', '/api/startbotdata', startBody, { token: u.token });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(m.profitLimitReached);
  });

  it('lets everyone start when subscriptions are off', async () => {
    const u = await signUp(t);
    const deps = { ...platformDepsOf(t.deps), subscriptionEnabled: false };
    expect(await platformCredit.canStart(deps, u.id)).toBe(true);
  });
});
