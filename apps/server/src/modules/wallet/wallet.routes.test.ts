import { bots } from '@gridbot/db';
import { ExchangeError } from '@gridbot/exchange';
import { walletMessages as m } from '@gridbot/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../testing/http';
import { asBinanceVenue, createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const keys = { apiKey: 'k'.repeat(64), secretKey: 'super-secret-value-1234567890' };

async function connectedUser(prefix: string) {
  const user = await registerUser(t, prefix);
  const saved = await call(t, 'POST', '/api/apikeys', keys, { token: user.token });
  expect(saved).toMatchObject({ status: 200, body: { message: m.keysSaved } });
  return user;
}

describe('API Setting', () => {
  it('saves keys, shows only the key back and reports Connected', async () => {
    const user = await registerUser(t, 'keys');
    await call(t, 'POST', '/api/apikeys', keys, { token: user.token });
    expect((await call(t, 'GET', '/api/fetchkeys', undefined, { token: user.token })).body).toEqual({
      apiKey: keys.apiKey,
      exchange: 'binance',
    });
    expect((await call(t, 'GET', '/api/checkConnection', undefined, { token: user.token })).body).toEqual({
      connected: true,
      venue: 'paper',
      exchange: 'paper',
      keyExchanges: [],
      keysRequired: false,
      permissions: null,
    });
    expect((await call(t, 'GET', '/api/serverip', undefined, { token: user.token })).body).toEqual({
      ip: '203.0.113.7',
    });
  });

  it('answers the spec save-failure message when Binance cannot be reached, and saves nothing', async () => {
    const user = await registerUser(t, 'unreach');
    const verify = t.deps.exchanges.verifyKeys;
    t.deps.exchanges.verifyKeys = async () => {
      throw new ExchangeError('retryable', -1007, 'No answer from Binance; try again later.');
    };
    try {
      const saved = await call(t, 'POST', '/api/apikeys', keys, { token: user.token });
      expect(saved).toMatchObject({ status: 503, body: { message: m.keysSaveFailed } });
    } finally {
      t.deps.exchanges.verifyKeys = verify;
    }
    expect((await call(t, 'GET', '/api/fetchkeys', undefined, { token: user.token })).body).toEqual({
      apiKey: null,
      exchange: null,
    });
  });

  it('keeps the secret encrypted at rest', async () => {
    await connectedUser('dump');
    const dump = JSON.stringify(await t.handle.db.execute(sql`select * from api_keys`));
    expect(dump).toContain('secret_sealed');
    expect(dump).not.toContain(keys.secretKey);
  });

  it('answers the spec messages for missing keys', async () => {
    const user = await registerUser(t, 'keymsg');
    const noKey = await call(
      t,
      'POST',
      '/api/apikeys',
      { apiKey: '', secretKey: 's' },
      { token: user.token },
    );
    expect(noKey).toMatchObject({ status: 400, body: { message: m.apiKeyRequired } });
    const noSecret = await call(
      t,
      'POST',
      '/api/apikeys',
      { apiKey: 'k', secretKey: '' },
      { token: user.token },
    );
    expect(noSecret).toMatchObject({ status: 400, body: { message: m.secretKeyRequired } });
  });

  it('disconnects with null/null, but not while a bot runs', async () => {
    const user = await connectedUser('disc');
    const me = await call(t, 'GET', '/api/me', undefined, { token: user.token });
    const userId = (me.body.user as { id: string }).id;
    const [bot] = await t.handle.db
      .insert(bots)
      .values({
        userId,
        botType: 'multigrid',
        strategyName: 'S',
        strategySnapshot: {} as never,
        symbol: 'BTCUSDT',
        category: 'Spot',
        investment: '100',
      })
      .returning({ id: bots.id });
    const refused = await call(
      t,
      'POST',
      '/api/apikeys',
      { apiKey: null, secretKey: null },
      { token: user.token },
    );
    expect(refused).toMatchObject({ status: 400, body: { message: m.disconnectWhileRunning } });

    await t.handle.db.update(bots).set({ status: 'Stopped' }).where(sql`${bots.id} = ${bot!.id}`);
    const ok = await call(
      t,
      'POST',
      '/api/apikeys',
      { apiKey: null, secretKey: null },
      { token: user.token },
    );
    expect(ok).toMatchObject({ status: 200, body: { message: m.disconnected } });
    expect((await call(t, 'GET', '/api/fetchkeys', undefined, { token: user.token })).body).toEqual({
      apiKey: null,
      exchange: null,
    });
  });
});

describe('Wallet Dashboard', () => {
  it('needs bound keys on Binance', async () => {
    const user = await registerUser(t, 'nokeys');
    await asBinanceVenue(t, async () => {
      const auth = { token: user.token };
      // The Wallet Dashboard and the dashboard poll every 10 s: without keys each read answers 200, that
      // nothing is connected and what it knows (no balance, no bots), rather than a 400 each time.
      const expectKeyless = async (path: string, known: Record<string, unknown>) =>
        expect(await call(t, 'GET', path, undefined, auth), path).toMatchObject({
          status: 200,
          body: { connected: false, ...known },
        });
      await expectKeyless('/api/spotBalance', { spotusdtAmount: null, committedUsdt: '0' });
      await expectKeyless('/api/futuresBalance', { futuresusdtAmount: null, committedUsdt: '0' });
      await expectKeyless('/api/spotAssets', { assets: [] });
      await expectKeyless('/api/futuresAssets', { assets: [] });
      await expectKeyless('/api/pichart', { usdt: null, availableBalance: null, botCount: 0 });
      await expectKeyless('/api/scalppichart', { botCount: 0 });
      // What moves money still needs the keys, with the way to bind them.
      const transfer = await call(
        t,
        'POST',
        '/api/transferspottofutures',
        { from: 'Spot', to: 'Futures', coin: 'USDT', amount: 10 },
        auth,
      );
      expect(transfer).toMatchObject({ status: 400, body: { message: m.notConnected } });
      expect((await call(t, 'GET', '/api/checkConnection', undefined, auth)).body).toEqual({
        connected: false,
        venue: 'binance',
        exchange: null,
        keyExchanges: [],
        keysRequired: true,
        permissions: null,
      });
    });
  });

  it('opens a paper account without any API key', async () => {
    const user = await registerUser(t, 'paperonly');
    const auth = { token: user.token };
    expect((await call(t, 'GET', '/api/checkConnection', undefined, auth)).body).toEqual({
      connected: true,
      venue: 'paper',
      exchange: 'paper',
      keyExchanges: [],
      keysRequired: false,
      permissions: null,
    });
    expect(await call(t, 'GET', '/api/spotBalance', undefined, auth)).toMatchObject({
      status: 200,
      body: { spotusdtAmount: '10000' },
    });
    expect(await call(t, 'GET', '/api/pichart', undefined, auth)).toMatchObject({
      status: 200,
      body: { availableBalance: '10000', botCount: 0 },
    });
  });

  it('shows a new paper account with 10,000 USDT spot', async () => {
    const user = await connectedUser('bal');
    const auth = { token: user.token };
    expect((await call(t, 'GET', '/api/spotBalance', undefined, auth)).body).toEqual({
      spotusdtAmount: '10000',
      committedUsdt: '0',
      venue: 'paper',
    });
    expect((await call(t, 'GET', '/api/futuresBalance', undefined, auth)).body).toEqual({
      futuresusdtAmount: '0',
      committedUsdt: '0',
    });
    const pie = await call(t, 'GET', '/api/pichart', undefined, auth);
    expect(pie.body).toEqual({
      usdt: '10000',
      availableBalance: '10000',
      chartData: [{ label: 'Not Active', value: 100 }],
      botCount: 0,
    });
  });

  it('shows the balances and the pie on the paper exchange of a member whose saved key no longer opens', async () => {
    // Sealed under another master key (rotated since): the paper exchange never uses a key, so the
    // dashboards answer all the same.
    const user = await connectedUser('rotated');
    const auth = { token: user.token };
    await t.handle.db.execute(sql`
      update api_keys set secret_sealed = 'sealed-under-another-master-key'
      where user_id = (select id from users where email = ${user.email})`);
    expect(await call(t, 'GET', '/api/pichart', undefined, auth)).toMatchObject({
      status: 200,
      body: { usdt: '10000', availableBalance: '10000', botCount: 0 },
    });
    expect(await call(t, 'GET', '/api/spotBalance', undefined, auth)).toMatchObject({
      status: 200,
      body: { spotusdtAmount: '10000' },
    });
    expect((await call(t, 'GET', '/api/checkConnection', undefined, auth)).body).toMatchObject({
      connected: true,
      exchange: 'paper',
    });
  });

  it('transfers 100 USDT to futures and back', async () => {
    const user = await connectedUser('xfer');
    const auth = { token: user.token };
    const there = await call(
      t,
      'POST',
      '/api/transferspottofutures',
      { from: 'Spot', to: 'Futures', coin: 'USDT', amount: 100 },
      auth,
    );
    expect(there).toMatchObject({ status: 200, body: { message: m.transferSuccessful } });
    expect((await call(t, 'GET', '/api/futuresBalance', undefined, auth)).body).toMatchObject({
      futuresusdtAmount: '100',
    });
    const back = await call(
      t,
      'POST',
      '/api/transferfuturestospot',
      { from: 'Futures', to: 'Spot', coin: 'USDT', amount: '100' },
      auth,
    );
    expect(back.status).toBe(200);
    expect((await call(t, 'GET', '/api/spotBalance', undefined, auth)).body).toMatchObject({
      spotusdtAmount: '10000',
    });
  });

  it('refuses more than the transferable balance and a wrong direction', async () => {
    const user = await connectedUser('xfer2');
    const auth = { token: user.token };
    const tooMuch = await call(
      t,
      'POST',
      '/api/transferspottofutures',
      { from: 'Spot', to: 'Futures', coin: 'USDT', amount: 10_000.01 },
      auth,
    );
    expect(tooMuch).toMatchObject({ status: 400, body: { message: m.amountExceedsTransferable } });
    const wrongWay = await call(
      t,
      'POST',
      '/api/transferspottofutures',
      { from: 'Futures', to: 'Spot', coin: 'USDT', amount: 1 },
      auth,
    );
    expect(wrongWay).toMatchObject({ status: 400, body: { message: m.transferDirection } });
    const zero = await call(
      t,
      'POST',
      '/api/transferspottofutures',
      { from: 'Spot', to: 'Futures', coin: 'USDT', amount: 0 },
      auth,
    );
    expect(zero).toMatchObject({ status: 400, body: { message: m.amountPositive } });
  });

  it('swaps an asset to USDT and lists assets with their USDT value', async () => {
    const user = await connectedUser('swap');
    const auth = { token: user.token };
    // Buy some ETH through the exchange first (the wallet itself only sells to USDT): 0.5 ETH less its 0.1 %
    // fee taken in ETH leaves 0.4995, a whole number of steps, so a swap of all of it leaves no dust.
    const me = await call(t, 'GET', '/api/me', undefined, auth);
    const exchange = t.deps.exchanges.forUser((me.body.user as { id: string }).id, {
      apiKey: 'k',
      secret: 's',
    });
    await exchange.placeOrder({
      market: 'spot',
      symbol: 'ETHUSDT',
      side: 'buy',
      type: 'market',
      clientOrderId: 'seed-1',
      quantity: '0.5',
    });
    const assets = (await call(t, 'GET', '/api/spotAssets', undefined, auth)).body.assets as {
      asset: string;
      balance: string;
      value: string;
    }[];
    const eth = assets.find((a) => a.asset === 'ETH');
    expect(Number(eth?.balance)).toBeGreaterThan(0);
    expect(Number(eth?.value)).toBeGreaterThan(400);

    const tooMuch = await call(
      t,
      'POST',
      '/api/swaptousdt',
      { asset: 'ETH', amount: Number(eth!.balance) * 2 },
      auth,
    );
    expect(tooMuch).toMatchObject({ status: 400, body: { message: m.swapInvalidAmount } });
    const swap = await call(t, 'POST', '/api/swaptousdt', { asset: 'ETH', amount: eth!.balance }, auth);
    expect(swap).toMatchObject({ status: 200, body: { message: m.swapSuccessful } });
    const after = (await call(t, 'GET', '/api/spotAssets', undefined, auth)).body.assets as {
      asset: string;
    }[];
    expect(after.some((a) => a.asset === 'ETH')).toBe(false);
    const empty = await call(t, 'POST', '/api/swaptousdt', { asset: 'ETH', amount: '' }, auth);
    expect(empty).toMatchObject({ status: 400, body: { message: m.swapInvalidAmount } });
  });
});

describe('market data', () => {
  it('serves live prices, pairs, tickers and candles from the feed', async () => {
    const user = await registerUser(t, 'mkt');
    const auth = { token: user.token };
    const price = await call(t, 'POST', '/api/liveprice', { pair: 'btc/usdt' }, auth);
    expect(price.body).toEqual({ pair: 'BTCUSDT', price: expect.stringMatching(/^\d+(\.\d+)?$/) });
    const future = await call(t, 'POST', '/api/futureliveprice', { pair: 'ETHUSDT' }, auth);
    expect(Number(future.body.price)).toBeGreaterThan(0);
    const unknown = await call(t, 'POST', '/api/liveprice', { pair: 'FOOUSDT' }, auth);
    expect(unknown).toMatchObject({ status: 400, body: { message: m.pairUnknown } });
    expect(((await call(t, 'GET', '/api/symbolpair', undefined, auth)).body.pairs as string[]).length).toBe(
      22,
    );

    const tickers = await call(t, 'GET', '/api/tickers');
    expect(tickers.body.source).toBe('sim');
    expect(tickers.body.tickers).toHaveLength(22);

    const candles = await call(
      t,
      'GET',
      '/api/candles?symbol=BTCUSDT&interval=15m&limit=20',
      undefined,
      auth,
    );
    expect(candles.status).toBe(200);
    expect((candles.body.candles as unknown[]).length).toBeGreaterThan(0);
    const bad = await call(t, 'GET', '/api/candles?symbol=BTCUSDT&interval=7m', undefined, auth);
    expect(bad).toMatchObject({ status: 400, body: { message: m.intervalInvalid } });
  });
});
