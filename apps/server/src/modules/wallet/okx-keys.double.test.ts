import { FakeBinanceServer, FakeOkxServer } from '@gridbot/exchange/testing';
import { securityMessages as sm, walletMessages as wm } from '@gridbot/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { type ExchangeGateway, loadUserKeys } from '../exchange';
import { liveGateway } from '../exchange/market-setup';

// API Setting in the live mode with an OKX key: bound with its passphrase against the OKX double, its rights
// read from /api/v5/account/config and judged by the same rules (and messages) as a Binance key's.
let t: TestApp;
let okx: FakeOkxServer;
let binance: FakeBinanceServer;
let paper: ExchangeGateway;
beforeAll(async () => {
  t = await createTestApp();
  okx = await FakeOkxServer.start({ apiKey: 'okx-key-1', secret: 'okx-secret-1', passphrase: 'okx-pass-1' });
  binance = await FakeBinanceServer.start({ apiKey: 'binance-key-1', secret: 'binance-secret-1' });
  paper = t.deps.exchanges;
  (t.deps as { exchanges: ExchangeGateway }).exchanges = await liveGateway({
    binance: { sandbox: false, baseUrl: binance.url },
    okx: { baseUrl: okx.url },
  });
});
afterAll(async () => {
  (t.deps as { exchanges: ExchangeGateway }).exchanges = paper;
  await okx.close();
  await binance.close();
  await t.close();
});
beforeEach(() => {
  okx.book.perm = 'read_only,trade';
});

const okxKeys = { apiKey: 'okx-key-1', secretKey: 'okx-secret-1', passphrase: 'okx-pass-1', exchange: 'okx' };
const userIdOf = async (token: string) =>
  ((await call(t, 'GET', '/api/me', undefined, { token })).body.user as { id: string }).id;

describe('an OKX key in API Setting (OKX double)', () => {
  it('binds a trade-only key with its passphrase: saved sealed, checked on OKX, and the account says OKX', async () => {
    const user = await registerUser(t, 'okxok');
    const res = await call(t, 'POST', '/api/apikeys', okxKeys, { token: user.token });
    expect(res).toMatchObject({ status: 200, body: { success: true, message: wm.keysSaved } });
    expect(okx.requests.some((r) => r.path === '/api/v5/account/config')).toBe(true);
    expect(binance.requests).toHaveLength(0);
    const fetched = await call(t, 'GET', '/api/fetchkeys', undefined, { token: user.token });
    expect(fetched.body).toEqual({ apiKey: 'okx-key-1', exchange: 'okx' });
    const keys = await loadUserKeys(t.deps, await userIdOf(user.token));
    expect(keys).toMatchObject({ exchange: 'okx', passphrase: 'okx-pass-1' });
    const exchange = t.deps.exchanges.forUser('any', keys!);
    expect(exchange.venue).toBe('okx');
    expect((await exchange.usdtFree()).spot).toBe('10000');
  });

  it('asks for the passphrase of an OKX key, and refuses a wrong one as invalid keys', async () => {
    const user = await registerUser(t, 'okxpp');
    const { passphrase: _, ...withoutPassphrase } = okxKeys;
    const missing = await call(t, 'POST', '/api/apikeys', withoutPassphrase, { token: user.token });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain(wm.passphraseRequired);
    const wrong = await call(
      t,
      'POST',
      '/api/apikeys',
      { ...okxKeys, passphrase: 'nope' },
      { token: user.token },
    );
    expect(wrong).toMatchObject({ status: 400, body: { message: wm.invalidKeys } });
  });

  it('refuses an OKX key that can withdraw with the same message as a Binance key, and saves nothing', async () => {
    const user = await registerUser(t, 'okxwd');
    okx.book.perm = 'read_only,trade,withdraw';
    const res = await call(t, 'POST', '/api/apikeys', okxKeys, { token: user.token });
    expect(res).toMatchObject({ status: 400, body: { message: sm.withdrawalsEnabled } });
    const fetched = await call(t, 'GET', '/api/fetchkeys', undefined, { token: user.token });
    expect(fetched.body.apiKey).toBeNull();
  });
});
