import { platformMessages as m, PLATFORM_OK } from '@gridbot/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { findWallet, ledgerSums } from '../credit/ledger.repo';
import { fund, platform, signUp } from './testing/platform-fixtures';

const ROUTES = [
  '/subscription/plans',
  '/subscription/list',
  '/subscription/create',
  '/wallet/deposit/list',
  '/wallet/usdt/deposit/listen',
  '/wallet/usdt/deposit/sync',
  '/withdraw/list',
  '/withdraw/create',
  '/swap/usdt-reward/create',
  '/level-income/level-reward',
  '/level-income/list',
];
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7'; // EIP-55 test vector
const list = { filters: {}, limit: 10, page: 1 };

describe('platform routes with SUBSCRIPTION_ENABLED off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ subscriptionEnabled: false });
  });
  afterAll(() => t.close());

  it('answers 404 on every platform route and every admin platform route', async () => {
    const user = await signUp(t);
    for (const path of ROUTES) expect((await platform(t, path, user.token, {})).status, path).toBe(404);
    expect((await call(t, 'GET', '/api/admin/plans', undefined, { token: user.token })).status).toBe(404);
  });

  it('keeps the platform fields out of the session user', async () => {
    const user = await signUp(t);
    const me = await call(t, 'GET', '/api/me', undefined, { token: user.token });
    expect(me.body.user).not.toHaveProperty('availableCredit');
  });
});

describe('platform routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 401 in the envelope without a token, on every route', async () => {
    for (const path of ROUTES) {
      const res = await platform(t, path, undefined, {});
      expect(res.status, path).toBe(401);
      expect(res.body.code).not.toBe(PLATFORM_OK);
      expect(res.body.msg).toEqual(expect.any(String));
      expect(res.body.error).toBe(res.body.msg);
    }
  });

  it('lists the seeded plans and level table in the envelope', async () => {
    const user = await signUp(t);
    const plans = await platform(t, '/subscription/plans', user.token);
    expect(plans.status).toBe(200);
    expect(plans.body.code).toBe('0000');
    const data = plans.body.data as { plans: { name: string; usdtToken: string; availableCredit: string }[] };
    expect(data.plans[0]).toMatchObject({ name: 'Starter', usdtToken: '100', availableCredit: '300' });
    const levels = await platform(t, '/level-income/level-reward', user.token);
    expect(levels.body).toMatchObject({
      code: '0000',
      data: {
        rewards: [
          { level: 1, rewardPercentage: 10 },
          { level: 2, rewardPercentage: 5 },
          { level: 3, rewardPercentage: 3 },
          { level: 4, rewardPercentage: 2 },
          { level: 5, rewardPercentage: 1 },
        ],
      },
    });
  });

  it('carries the platform wallet fields in the session user data', async () => {
    const user = await signUp(t);
    const me = await call(t, 'GET', '/api/me', undefined, { token: user.token });
    expect(me.body.user).toMatchObject({
      usdtToken: '0',
      ifcToken: '0',
      ifxToken: '0',
      usdtRewardToken: '0',
      availableCredit: '100',
      isActiveSubscription: false,
      userCode: user.userCode,
      qrCode: null,
    });
    expect(user.userCode).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);
  });

  it('refuses a subscription the balance cannot pay, with the shortfall named', async () => {
    const user = await signUp(t);
    const plans = (await platform(t, '/subscription/plans', user.token)).body.data as {
      plans: { id: string }[];
    };
    const res = await platform(t, '/subscription/create', user.token, { planId: plans.plans[0]?.id });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(m.insufficientBalance('USDT', '100', '0'));
    expect((await platform(t, '/subscription/create', user.token, {})).body.msg).toBe(m.planRequired);
    expect((await platform(t, '/subscription/create', user.token, { planId: 'nope' })).body.msg).toBe(
      m.planUnknown,
    );
  });

  it('subscribes, adds the profit limit and pays five referral levels their share', async () => {
    const chain = [await signUp(t)];
    for (let i = 0; i < 6; i += 1) chain.push(await signUp(t, chain[chain.length - 1]?.userCode));
    const buyer = chain[6];
    if (!buyer) throw new Error('no buyer');
    await fund(t, buyer.id, 'usdtToken', '150');
    const plans = (await platform(t, '/subscription/plans', buyer.token)).body.data as {
      plans: { id: string }[];
    };
    const res = await platform(t, '/subscription/create', buyer.token, { planId: plans.plans[0]?.id });
    expect(res.body).toMatchObject({ code: '0000', msg: m.subscribed });
    const me = await call(t, 'GET', '/api/me', undefined, { token: buyer.token });
    expect(me.body.user).toMatchObject({
      usdtToken: '50',
      availableCredit: '400',
      isActiveSubscription: true,
    });

    const expected = ['10', '5', '3', '2', '1', '0'];
    for (let level = 1; level <= 6; level += 1) {
      const earner = chain[6 - level];
      if (!earner) throw new Error('missing earner');
      const wallet = await findWallet(t.deps.db, earner.id);
      expect(Number(wallet?.usdtRewardToken ?? '0'), `level ${level}`).toBe(Number(expected[level - 1]));
      const history = await platform(t, '/level-income/list', earner.token, list);
      const page = history.body.data as {
        records: { amount: string; percentage: number; fromUserName: string }[];
      };
      if (level <= 5) {
        expect(page.records).toEqual([
          expect.objectContaining({ amount: expected[level - 1], fromUserName: buyer.username }),
        ]);
      } else {
        expect(page.records).toEqual([]);
      }
    }
    const subs = await platform(t, '/subscription/list', buyer.token, list);
    expect(subs.body.data).toMatchObject({
      current: 1,
      pages: 1,
      records: [{ planName: 'Starter', status: 'Active' }],
    });
    const sums = await ledgerSums(t.deps.db, buyer.id);
    expect(sums).toMatchObject({ usdtToken: '50', availableCredit: '400' });
  });

  it('pays referral rewards on the USDT part of a price only, so an IFC-priced plan pays none', async () => {
    const referrer = await signUp(t);
    const buyer = await signUp(t, referrer.userCode);
    await fund(t, buyer.id, 'ifcToken', '5000');
    const plans = (await platform(t, '/subscription/plans', buyer.token)).body.data as {
      plans: { id: string; name: string }[];
    };
    const ifcPlan = plans.plans.find((p) => p.name === 'IFC Pro');
    const res = await platform(t, '/subscription/create', buyer.token, { planId: ifcPlan?.id });
    expect(res.body.code).toBe('0000');
    expect(await findWallet(t.deps.db, buyer.id)).toMatchObject({ ifcToken: '0', availableCredit: '2100' });
    expect((await findWallet(t.deps.db, referrer.id))?.usdtRewardToken ?? '0').toBe('0');
    const history = await platform(t, '/level-income/list', referrer.token, list);
    expect((history.body.data as { records: unknown[] }).records).toEqual([]);
  });

  it('never shows another user’s records', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await fund(t, a.id, 'usdtRewardToken', '50');
    await platform(t, '/withdraw/create', a.token, { amount: '20', toAddress: ADDRESS });
    for (const path of [
      '/subscription/list',
      '/wallet/deposit/list',
      '/withdraw/list',
      '/level-income/list',
    ]) {
      const res = await platform(t, path, b.token, list);
      expect((res.body.data as { records: unknown[] }).records, path).toEqual([]);
    }
    expect(
      ((await platform(t, '/withdraw/list', a.token, list)).body.data as { records: unknown[] }).records,
    ).toHaveLength(1);
  });

  it('validates withdrawals with the spec messages and our bounds, and holds the amount', async () => {
    const u = await signUp(t);
    await fund(t, u.id, 'usdtRewardToken', '30');
    const w = (body: unknown) => platform(t, '/withdraw/create', u.token, body);
    expect((await w({ toAddress: ADDRESS })).body.msg).toBe(m.amountRequired);
    expect((await w({ amount: '', toAddress: ADDRESS })).body.msg).toBe(m.amountRequired);
    expect((await w({ amount: '20' })).body.msg).toBe(m.addressRequired);
    expect((await w({ amount: '20', toAddress: '' })).body.msg).toBe(m.addressRequired);
    expect((await w({ amount: '20', toAddress: '0x1234' })).body.msg).toBe(m.addressInvalid);
    expect((await w({ amount: '20', toAddress: ADDRESS.replace('E7', 'e7') })).body.msg).toBe(
      m.addressChecksum,
    );
    // Well-formed, but it burns what it receives.
    expect((await w({ amount: '20', toAddress: `0x${'0'.repeat(40)}` })).body.msg).toBe(m.addressZero);
    expect((await w({ amount: '5', toAddress: ADDRESS })).body.msg).toBe(m.withdrawMin('10'));
    expect((await w({ amount: '31', toAddress: ADDRESS })).body.msg).toBe(m.amountAtMost('30'));
    const ok = await w({ amount: '20', toAddress: ADDRESS.toLowerCase() });
    expect(ok.body).toMatchObject({
      code: '0000',
      msg: m.withdrawRequested,
      data: { status: 'PENDING', fee: '1', toAddress: ADDRESS },
    });
    expect(Number((await findWallet(t.deps.db, u.id))?.usdtRewardToken)).toBe(10);
  });

  it('validates the rewards-to-USDT swap with the spec messages', async () => {
    const u = await signUp(t);
    await fund(t, u.id, 'usdtRewardToken', '12.5');
    const s = (body: unknown) => platform(t, '/swap/usdt-reward/create', u.token, body);
    expect((await s({})).body.msg).toBe(m.amountRequired);
    expect((await s({ amount: 'abc' })).body.msg).toBe(m.amountNumber);
    expect((await s({ amount: '-1' })).body.msg).toBe(m.amountPositive);
    expect((await s({ amount: 0 })).body.msg).toBe(m.amountPositive);
    expect((await s({ amount: '13' })).body.msg).toBe(m.amountAtMost('12.5'));
    expect((await s({ amount: '2.5' })).body).toMatchObject({ code: '0000', msg: m.swapDone });
    const wallet = await findWallet(t.deps.db, u.id);
    expect([Number(wallet?.usdtRewardToken), Number(wallet?.usdtToken)]).toEqual([10, 2.5]);
  });

  it('says deposits are not configured without CHAIN_RPC_URL', async () => {
    const u = await signUp(t);
    for (const path of ['/wallet/usdt/deposit/listen', '/wallet/usdt/deposit/sync']) {
      const res = await platform(t, path, u.token);
      expect(res.status).toBe(503);
      expect(res.body.msg).toBe(m.depositsNotConfigured);
    }
  });

  it('pages lists 10 at a time with current and pages', async () => {
    const u = await signUp(t);
    await fund(t, u.id, 'usdtRewardToken', '300');
    for (let i = 0; i < 12; i += 1)
      await platform(t, '/withdraw/create', u.token, { amount: '11', toAddress: ADDRESS });
    const p2 = await platform(t, '/withdraw/list', u.token, { filters: {}, limit: 10, page: 2 });
    expect(p2.body.data).toMatchObject({ current: 2, pages: 2, total: 12 });
    expect((p2.body.data as { records: unknown[] }).records).toHaveLength(2);
  });

  it('lets only one of two concurrent subscriptions spend one balance', async () => {
    const u = await signUp(t);
    await fund(t, u.id, 'usdtToken', '150');
    const plans = (await platform(t, '/subscription/plans', u.token)).body.data as {
      plans: { id: string }[];
    };
    const body = { planId: plans.plans[0]?.id };
    const results = await Promise.all([
      platform(t, '/subscription/create', u.token, body),
      platform(t, '/subscription/create', u.token, body),
    ]);
    expect(results.map((r) => r.body.code).sort()).toEqual(['0000', '4000']);
    expect(Number((await findWallet(t.deps.db, u.id))?.usdtToken)).toBe(50);
  });
});
