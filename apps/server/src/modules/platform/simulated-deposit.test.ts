import { platformMessages as m } from '@gridbot/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../testing/http';
import { asBinanceVenue, createTestApp, type TestApp } from '../../testing/test-app';
import { findWallet, ledgerSums } from '../credit/ledger.repo';
import { simulatedDepositsAllowed } from './deposits.service';
import { platform, signUp } from './testing/platform-fixtures';

const list = { filters: {}, limit: 10, page: 1 };

describe('simulated deposit on a paper install', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is offered and credited through the deposit ledger, so a subscription pays the referrer', async () => {
    const referrer = await signUp(t);
    const user = await signUp(t, referrer.userCode);
    expect((await platform(t, '/wallet/deposit/options', user.token)).body).toMatchObject({
      code: '0000',
      data: { chain: false, simulated: true },
    });
    const res = await platform(t, '/wallet/deposit/simulate', user.token, { token: 'USDT', amount: '150' });
    expect(res.body).toMatchObject({ code: '0000', msg: m.simulatedDepositCredited('150', 'USDT') });
    const wallet = await findWallet(t.deps.db, user.id);
    expect(wallet?.usdtToken).toBe('150');
    expect((await ledgerSums(t.deps.db, user.id)).usdtToken).toBe('150');
    const history = (await platform(t, '/wallet/deposit/list', user.token, list)).body.data as {
      records: { amount: string; token: string; transactionHash: string }[];
    };
    expect(history.records).toEqual([
      expect.objectContaining({
        amount: '150',
        token: 'USDT',
        transactionHash: expect.stringMatching(/^SIMULATED-/),
      }),
    ]);

    const plans = (await platform(t, '/subscription/plans', user.token)).body.data as {
      plans: { id: string }[];
    };
    const sub = await platform(t, '/subscription/create', user.token, { planId: plans.plans[0]?.id });
    expect(sub.body).toMatchObject({ code: '0000', msg: m.subscribed });
    expect(Number((await findWallet(t.deps.db, referrer.id))?.usdtRewardToken)).toBe(10);
  });

  it("stamps the wallet's last change with the app's clock, not the machine's", async () => {
    const user = await signUp(t);
    t.clock.advance(2 * 86_400_000);
    await platform(t, '/wallet/deposit/simulate', user.token, { token: 'USDT', amount: '20' });
    const wallet = await findWallet(t.deps.db, user.id);
    expect(wallet?.updatedAt.getTime()).toBe(t.clock.now().getTime());
  });

  it('refuses amounts out of range', async () => {
    const user = await signUp(t);
    const zero = await platform(t, '/wallet/deposit/simulate', user.token, { amount: 0 });
    expect(zero.body.msg).toBe(m.amountPositive);
    const huge = await platform(t, '/wallet/deposit/simulate', user.token, { amount: 1_000_000 });
    expect(huge.body.msg).toBe(m.simulatedDepositMax);
  });

  it('refuses "-5" and "1e12" with a message and credits nothing', async () => {
    const user = await signUp(t);
    const negative = await platform(t, '/wallet/deposit/simulate', user.token, { amount: '-5' });
    expect(negative.body.msg).toBe(m.amountPositive);
    const exponent = await platform(t, '/wallet/deposit/simulate', user.token, { amount: '1e12' });
    expect(exponent.body.msg).toBe(m.amountNumber);
    expect(Number((await findWallet(t.deps.db, user.id))?.usdtToken ?? 0)).toBe(0);
  });

  it('does not exist on Binance', async () => {
    const user = await signUp(t);
    await asBinanceVenue(t, async () => {
      const res = await platform(t, '/wallet/deposit/simulate', user.token, { amount: 10 });
      expect(res).toMatchObject({ status: 403, body: { msg: m.simulatedDepositOff } });
      expect((await platform(t, '/wallet/deposit/options', user.token)).body.data).toEqual({
        chain: false,
        simulated: false,
      });
    });
    expect((await call(t, 'GET', '/api/me', undefined, { token: user.token })).body.user).toMatchObject({
      usdtToken: '0',
    });
  });
});

describe('simulated deposit in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ production: true });
  });
  afterAll(() => t.close());

  it('is refused', async () => {
    const user = await signUp(t);
    const res = await platform(t, '/wallet/deposit/simulate', user.token, { amount: 10 });
    expect(res).toMatchObject({ status: 403, body: { msg: m.simulatedDepositOff } });
  });
});

describe('simulatedDepositsAllowed', () => {
  it('only on paper, outside production, with no chain configured', () => {
    const base = { venue: 'paper' as const, production: false, chain: undefined, configured: false };
    expect(simulatedDepositsAllowed(base)).toBe(true);
    expect(simulatedDepositsAllowed({ ...base, configured: true })).toBe(false);
    expect(simulatedDepositsAllowed({ ...base, production: true })).toBe(false);
    expect(simulatedDepositsAllowed({ ...base, venue: 'binance' })).toBe(false);
  });
});
