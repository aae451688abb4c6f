import { bots } from '@gridbot/db';
import { FakeBinanceServer, FakeBybitServer } from '@gridbot/exchange/testing';
import { securityMessages as sm, walletMessages as wm } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertBot } from '../../testing/bot-fixtures';
import { call, registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { type ExchangeGateway, loadUserKeys } from '../exchange';
import { liveGateway } from '../exchange/market-setup';

// API Setting in the live mode with a Bybit key: bound against the Bybit double, its rights read from
// /v5/user/query-api and judged by the same rules (and messages) as a Binance key's.
let t: TestApp;
let bybit: FakeBybitServer;
let binance: FakeBinanceServer;
let paper: ExchangeGateway;
const tradingRights = () => structuredClone(bybit.book.apiKeyInfo);
let rights: FakeBybitServer['book']['apiKeyInfo'];
beforeAll(async () => {
  t = await createTestApp();
  bybit = await FakeBybitServer.start({ apiKey: 'bybit-key-1', secret: 'bybit-secret-1' });
  binance = await FakeBinanceServer.start({ apiKey: 'binance-key-1', secret: 'binance-secret-1' });
  rights = tradingRights();
  paper = t.deps.exchanges;
  (t.deps as { exchanges: ExchangeGateway }).exchanges = await liveGateway({
    binance: { sandbox: false, baseUrl: binance.url },
    bybit: { baseUrl: bybit.url },
  });
});
afterAll(async () => {
  (t.deps as { exchanges: ExchangeGateway }).exchanges = paper;
  await bybit.close();
  await binance.close();
  await t.close();
});
beforeEach(() => {
  bybit.book.apiKeyInfo = structuredClone(rights);
});

const bybitKeys = { apiKey: 'bybit-key-1', secretKey: 'bybit-secret-1', exchange: 'bybit' };
const userIdOf = async (token: string) =>
  ((await call(t, 'GET', '/api/me', undefined, { token })).body.user as { id: string }).id;

describe('a Bybit key in API Setting (Bybit double)', () => {
  it('binds a trade-only key to Bybit: saved with its exchange, checked there, and the account says Bybit', async () => {
    const user = await registerUser(t, 'bybok');
    const res = await call(t, 'POST', '/api/apikeys', bybitKeys, { token: user.token });
    expect(res).toMatchObject({ status: 200, body: { success: true, message: wm.keysSaved } });
    expect(bybit.requests.some((r) => r.path === '/v5/user/query-api')).toBe(true);
    expect(binance.requests).toHaveLength(0);

    const fetched = await call(t, 'GET', '/api/fetchkeys', undefined, { token: user.token });
    expect(fetched.body).toEqual({ apiKey: 'bybit-key-1', exchange: 'bybit' });
    const shown = await call(t, 'GET', '/api/checkConnection', undefined, { token: user.token });
    expect(shown.body).toMatchObject({
      connected: true,
      exchange: 'bybit',
      keyExchanges: ['binance', 'bybit'],
      permissions: { enableSpotAndMarginTrading: true, enableFutures: true, enableWithdrawals: false },
    });
    // The gateway builds the user's Exchange on the key's exchange.
    const keys = await loadUserKeys(t.deps, await userIdOf(user.token));
    expect(t.deps.exchanges.forUser('any', keys!).venue).toBe('bybit');
  });

  it('refuses a Bybit key that can withdraw with the same message as a Binance key, and saves nothing', async () => {
    const user = await registerUser(t, 'bybwd');
    bybit.book.apiKeyInfo.permissions.Wallet = ['AccountTransfer', 'Withdraw'];
    const res = await call(t, 'POST', '/api/apikeys', bybitKeys, { token: user.token });
    expect(res).toMatchObject({ status: 400, body: { message: sm.withdrawalsEnabled } });
    const fetched = await call(t, 'GET', '/api/fetchkeys', undefined, { token: user.token });
    expect(fetched.body.apiKey).toBeNull();
  });

  it('refuses a read-only Bybit key: no spot trading', async () => {
    const user = await registerUser(t, 'bybro');
    bybit.book.apiKeyInfo.readOnly = 1;
    const res = await call(t, 'POST', '/api/apikeys', bybitKeys, { token: user.token });
    expect(res).toMatchObject({ status: 400, body: { message: sm.spotTradingMissing } });
  });

  it('refuses a key Bybit does not know (10003) as invalid', async () => {
    const user = await registerUser(t, 'bybbad');
    const res = await call(
      t,
      'POST',
      '/api/apikeys',
      { ...bybitKeys, apiKey: 'other' },
      { token: user.token },
    );
    expect(res).toMatchObject({ status: 400, body: { message: wm.invalidKeys } });
  });

  it('refuses an exchange it does not know, and takes a key without one as Binance', async () => {
    const user = await registerUser(t, 'bybex');
    const odd = await call(
      t,
      'POST',
      '/api/apikeys',
      { ...bybitKeys, exchange: 'kraken' },
      { token: user.token },
    );
    expect(odd.status).toBe(400);
    const plain = { apiKey: 'binance-key-1', secretKey: 'binance-secret-1' };
    expect((await call(t, 'POST', '/api/apikeys', plain, { token: user.token })).status).toBe(200);
    const fetched = await call(t, 'GET', '/api/fetchkeys', undefined, { token: user.token });
    expect(fetched.body).toEqual({ apiKey: 'binance-key-1', exchange: 'binance' });
  });

  it('refuses a key of another exchange while a bot runs on the bound one, and takes a new key of the same exchange', async () => {
    const user = await registerUser(t, 'bybsw');
    const binanceKeys = { apiKey: 'binance-key-1', secretKey: 'binance-secret-1' };
    expect((await call(t, 'POST', '/api/apikeys', binanceKeys, { token: user.token })).status).toBe(200);
    const botId = await insertBot(t.handle.db, await userIdOf(user.token));
    // The bot's coin and orders are on Binance: switching its member to Bybit would send its sale there.
    const switched = await call(t, 'POST', '/api/apikeys', bybitKeys, { token: user.token });
    expect(switched).toMatchObject({ status: 400, body: { message: wm.switchWhileRunning } });
    const fetched = await call(t, 'GET', '/api/fetchkeys', undefined, { token: user.token });
    expect(fetched.body).toEqual({ apiKey: 'binance-key-1', exchange: 'binance' });
    // A key of the same exchange (a rotated one) replaces the old at any time.
    expect((await call(t, 'POST', '/api/apikeys', binanceKeys, { token: user.token })).status).toBe(200);

    await t.handle.db.update(bots).set({ status: 'Stopped' }).where(eq(bots.id, botId));
    expect((await call(t, 'POST', '/api/apikeys', bybitKeys, { token: user.token })).status).toBe(200);
  });

  it('refuses a Bybit key where the server takes none (Bybit not configured)', async () => {
    const live = t.deps.exchanges;
    (t.deps as { exchanges: ExchangeGateway }).exchanges = await liveGateway({
      binance: { sandbox: false, baseUrl: binance.url },
    });
    try {
      const user = await registerUser(t, 'bybno');
      const res = await call(t, 'POST', '/api/apikeys', bybitKeys, { token: user.token });
      expect(res).toMatchObject({ status: 400, body: { message: wm.exchangeUnavailable('Bybit') } });
    } finally {
      (t.deps as { exchanges: ExchangeGateway }).exchanges = live;
    }
  });
});
