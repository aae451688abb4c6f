import { FakeBinanceServer, tradingKeyPermissions } from '@gridbot/exchange/testing';
import { securityMessages as sm } from '@gridbot/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertBot } from '../../testing/bot-fixtures';
import { call, registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { BotSupervisor } from '../../worker/bot-supervisor';
import type { ExchangeGateway } from '../exchange/exchange-gateway';
import { liveGateway } from '../exchange/market-setup';
import { KeyPermissionMonitor } from './key-monitor';

let t: TestApp;
let fake: FakeBinanceServer;
let paper: ExchangeGateway;
beforeAll(async () => {
  t = await createTestApp();
  fake = await FakeBinanceServer.start({ apiKey: 'binance-key-1', secret: 'binance-secret-1' });
  paper = t.deps.exchanges;
  (t.deps as { exchanges: ExchangeGateway }).exchanges = await liveGateway({
    binance: { sandbox: false, baseUrl: fake.url },
  });
});
afterAll(async () => {
  (t.deps as { exchanges: ExchangeGateway }).exchanges = paper;
  await fake.close();
  await t.close();
});
beforeEach(() => {
  fake.keyPermissions = tradingKeyPermissions();
});

const keys = { apiKey: 'binance-key-1', secretKey: 'binance-secret-1' };
const userIdOf = async (token: string) =>
  ((await call(t, 'GET', '/api/me', undefined, { token })).body.user as { id: string }).id;

describe('API key permissions on the Binance double', () => {
  it('refuses a key that can withdraw, with the message, and saves nothing', async () => {
    const user = await registerUser(t, 'kw');
    fake.keyPermissions = { ...tradingKeyPermissions(), enableWithdrawals: true };
    const res = await call(t, 'POST', '/api/apikeys', keys, { token: user.token });
    expect(res).toMatchObject({
      status: 400,
      body: { message: 'Withdrawals must be disabled on this API key.' },
    });
    const fetched = await call(t, 'GET', '/api/fetchkeys', undefined, { token: user.token });
    expect(fetched.body.apiKey).toBeNull();
    expect(fake.requests.some((r) => r.path === '/sapi/v1/account/apiRestrictions')).toBe(true);
  });

  it('refuses a key without spot trading, and one without futures when the user has futures bots', async () => {
    const user = await registerUser(t, 'ks');
    fake.keyPermissions = { ...tradingKeyPermissions(), enableSpotAndMarginTrading: false };
    const spot = await call(t, 'POST', '/api/apikeys', keys, { token: user.token });
    expect(spot).toMatchObject({ status: 400, body: { message: sm.spotTradingMissing } });

    fake.keyPermissions = { ...tradingKeyPermissions(), enableFutures: false };
    expect((await call(t, 'POST', '/api/apikeys', keys, { token: user.token })).status).toBe(200);
    await insertBot(t.deps.db, await userIdOf(user.token), { market: 'future', leverage: 2 });
    const futures = await call(t, 'POST', '/api/apikeys', keys, { token: user.token });
    expect(futures).toMatchObject({ status: 400, body: { message: sm.futuresMissing } });
  });

  it('saves a key without IP restriction with the warning and the IP to whitelist, and shows its rights', async () => {
    const user = await registerUser(t, 'kip');
    fake.keyPermissions = { ...tradingKeyPermissions(), ipRestrict: false };
    const res = await call(t, 'POST', '/api/apikeys', keys, { token: user.token });
    expect(res).toMatchObject({ status: 200, body: { warning: sm.noIpRestriction('203.0.113.7') } });
    const shown = await call(t, 'GET', '/api/checkConnection', undefined, { token: user.token });
    expect(shown.body).toMatchObject({
      connected: true,
      permissions: {
        ipRestricted: false,
        enableReading: true,
        enableSpotAndMarginTrading: true,
        enableFutures: true,
        enableWithdrawals: false,
      },
    });
  });

  it('pauses the bots at the next check once the trading right is removed, with the reason shown', async () => {
    const user = await registerUser(t, 'klost');
    expect((await call(t, 'POST', '/api/apikeys', keys, { token: user.token })).status).toBe(200);
    const botID = await insertBot(t.deps.db, await userIdOf(user.token));
    const supervisor = new BotSupervisor({
      db: t.deps.db,
      feed: t.feed,
      exchanges: t.deps.exchanges,
      loadKeys: async () => undefined,
      now: () => Date.now(),
      log: () => {},
    });
    const monitor = new KeyPermissionMonitor(
      { ...t.deps, now: () => t.clock.now(), log: () => {} },
      (userId, reason) => supervisor.haltUserBots(userId, reason),
    );

    await monitor.checkAll();
    const before = await call(t, 'POST', '/api/botinfo', { botID }, { token: user.token });
    expect(before.body).toMatchObject({ status: 'Live', haltReason: null });

    // The owner unticks "Enable Spot & Margin Trading" on Binance; the next daily check sees it.
    fake.keyPermissions = { ...tradingKeyPermissions(), enableSpotAndMarginTrading: false };
    await monitor.checkAll();
    const after = await call(t, 'POST', '/api/botinfo', { botID }, { token: user.token });
    expect(after.body).toMatchObject({
      status: 'Pause',
      haltReason: sm.keyLostRights(sm.spotTradingMissing),
    });
    const shown = await call(t, 'GET', '/api/checkConnection', undefined, { token: user.token });
    expect(shown.body).toMatchObject({ permissions: { enableSpotAndMarginTrading: false } });
  });
});
