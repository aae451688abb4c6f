/**
 * Starting a range grid on a live (Binance) key (docs/trading-rules.md §2.6 "Live (Binance)"): the symbol's
 * MAX_NUM_ORDERS and PERCENT_PRICE_BY_SIDE filters, read from the Binance double's exchangeInfo, refuse a grid
 * that needs more open orders or whose levels the filter would refuse, with a message that says which and what
 * to change. ETHUSDT spot (tick 0.01) at 2000; 1000 USDT of the double's 10,000 USDT. Short and neutral futures
 * grids start on a Binance, a Bybit and an OKX key (their adapters send reduce-only exactly the orders that close)
 * and are refused on an exchange whose adapter sends every futures sell reduce-only.
 */
import { BybitExchange } from '@gridbot/exchange/bybit';
import { OkxExchange } from '@gridbot/exchange/okx';
import { FakeBinanceServer, FakeBybitServer, FakeOkxServer, ManualFeed } from '@gridbot/exchange/testing';
import { botMessages as m, money } from '@gridbot/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../app/deps';
import { binanceClientOf } from '../../testing/binance-client';
import { call, registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { LIVE_LONG_ONLY } from './grid.service';

let t: TestApp<ManualFeed>;
let fake: FakeBinanceServer;
beforeAll(async () => {
  t = await createTestApp(
    {},
    { feed: new ManualFeed({ 'spot:ETHUSDT': '2000', 'future:ETHUSDT': '2000', 'future:SOLUSDT': '150' }) },
  );
  fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
  fake.setPrice('ETHUSDT', 'spot', '2000');
  const table = fake.book.rules('ETHUSDT', 'spot');
  // Binance lets an account hold 10 open orders on ETHUSDT here, buys down to 80 % of the price and sells up
  // to 125 %.
  fake.book.ruleOverrides.set('spot:ETHUSDT', {
    ...table,
    maxNumOrders: 10,
    percentPrice: { bidUp: '1.2', bidDown: '0.8', askUp: '1.25', askDown: '0.8' },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** A trader whose keys are bound, then every exchange call goes to the Binance double. */
let trader: Promise<{ token: string }> | undefined;
/** One trader for the file: once the exchange is live, this server refuses new Binance keys (a replayed feed). */
const liveTrader = () => {
  trader ??= bindLiveKeys();
  return trader;
};

async function bindLiveKeys() {
  const user = await registerUser(t, 'gb');
  const keys = { apiKey: 'k'.repeat(64), secretKey: 'secret-secret-secret' };
  await call(t, 'POST', '/api/apikeys', keys, { token: user.token });
  const exchange = binanceClientOf(fake);
  (t.deps as { exchanges: AppDeps['exchanges'] }).exchanges = {
    venue: 'binance',
    forUser: () => exchange,
    verifyKeys: async () => true,
  };
  return { token: user.token };
}

const start = (strategy: Record<string, unknown>) => ({
  category: 'Spot',
  selectPair: 'ETHUSDT',
  amount: 1000,
  strategy: { type: 'range', ...strategy },
});

describe('starting a range grid on Binance', () => {
  it('refuses a grid that needs more open orders than MAX_NUM_ORDERS, or levels outside PERCENT_PRICE_BY_SIDE', async () => {
    const auth = await liveTrader();
    // 12 grids rest 12 orders (13 levels, the one nearest the price empty): 2 more than the 10 allowed.
    const many = await call(
      t,
      'POST',
      '/api/startgrid',
      start({ lower: 1900, upper: 2140, grids: 12 }),
      auth,
    );
    expect(many.status).toBe(400);
    expect(many.body.message).toBe(
      'the grid rests 12 orders on ETHUSDT at once, more than the 10 open orders Binance allows on the symbol (MAX_NUM_ORDERS): use at most 10 grids',
    );
    // Levels 1500, 1750, 2000, 2250, 2500: buys may go down to 2000 × 0.8 = 1600, sells up to 2000 × 1.25 = 2500.
    const wide = await call(t, 'POST', '/api/startgrid', start({ lower: 1500, upper: 2500, grids: 4 }), auth);
    expect(wide.status).toBe(400);
    expect(wide.body.message).toBe(
      'the lowest buy at 1500 is below 1600, the lowest buy price Binance accepts for ETHUSDT at 2000 (PERCENT_PRICE_BY_SIDE), 80% of the price: raise the lower price to at least 1600',
    );
    // Levels 1700–2600 by 225: the top sell at 2600 is over 2500.
    const high = await call(t, 'POST', '/api/startgrid', start({ lower: 1700, upper: 2600, grids: 4 }), auth);
    expect(high.body.message).toBe(
      'the highest sell at 2600 is above 2500, the highest sell price Binance accepts for ETHUSDT at 2000 (PERCENT_PRICE_BY_SIDE), 125% of the price: lower the upper price to at most 2500',
    );
    expect((await call(t, 'GET', '/api/gridbots', undefined, auth)).body).toEqual([]);
    // Inside both filters (1600–2500 in 10 grids of 90) the grid starts.
    const fits = await call(
      t,
      'POST',
      '/api/startgrid',
      start({ lower: 1600, upper: 2500, grids: 10 }),
      auth,
    );
    expect(fits.status).toBe(200);
    expect(fits.body.message).toBe(m.botStarting);
  }, 60_000);

  it('starts a neutral and a short futures grid on a Binance key, whose sells open shorts', async () => {
    const auth = await liveTrader();
    fake.setPrice('ETHUSDT', 'future', '2000');
    fake.setPrice('BTCUSDT', 'future', '60000');
    t.feed.setPrice('BTCUSDT', 'future', '60000');
    fake.book.futuresWallet = money('5000');
    const futures = (selectPair: string, strategy: Record<string, unknown>) => ({
      category: 'Future',
      selectPair,
      amount: 500,
      strategy: { type: 'range', grids: 4, leverage: 2, ...strategy },
    });
    const neutral = await call(
      t,
      'POST',
      '/api/startgrid',
      futures('ETHUSDT', { lower: 1900, upper: 2100, direction: 'neutral' }),
      auth,
    );
    expect(neutral).toMatchObject({ status: 200, body: { message: m.botStarting } });
    const short = await call(
      t,
      'POST',
      '/api/startgrid',
      futures('BTCUSDT', { lower: 58000, upper: 62000, direction: 'short' }),
      auth,
    );
    expect(short).toMatchObject({ status: 200, body: { message: m.botStarting } });
    const grids = (await call(t, 'GET', '/api/gridbots', undefined, auth)).body as unknown as {
      category: string;
      symbol: string;
    }[];
    expect(
      grids
        .filter((grid) => grid.category === 'Future')
        .map((grid) => grid.symbol)
        .sort(),
    ).toEqual(['BTCUSDT', 'ETHUSDT']);
  }, 60_000);

  /** Every exchange call of the test's trader goes to `exchange` while `body` runs. */
  async function tradingOn(exchange: AppDeps['exchanges']['forUser'], body: () => Promise<void>) {
    const deps = t.deps as { exchanges: AppDeps['exchanges'] };
    const binance = deps.exchanges;
    deps.exchanges = { venue: 'binance', forUser: exchange, verifyKeys: async () => true };
    try {
      await body();
    } finally {
      deps.exchanges = binance;
    }
  }
  /** 500 USDT at 2× on 4 levels within 5 % of a symbol's price. */
  const gridOn = (selectPair: string, price: number, direction: string) => ({
    category: 'Future',
    selectPair,
    amount: 500,
    strategy: { type: 'range', lower: price * 0.95, upper: price * 1.05, grids: 4, direction, leverage: 2 },
  });

  it('starts a short futures grid on a Bybit key, whose Sells open shorts in one-way mode', async () => {
    const auth = await liveTrader();
    const bybit = await FakeBybitServer.start({ apiKey: 'k', secret: 's' });
    bybit.setPrice('BNBUSDT', 'future', '600');
    t.feed.setPrice('BNBUSDT', 'future', '600');
    bybit.book.contractCash = money('5000');
    const adapter = new BybitExchange({
      apiKey: 'k',
      secret: 's',
      baseUrl: bybit.url,
      enableRateLimit: false,
    });
    try {
      await tradingOn(
        () => adapter,
        async () => {
          const short = await call(t, 'POST', '/api/startgrid', gridOn('BNBUSDT', 600, 'short'), auth);
          expect(short).toMatchObject({ status: 200, body: { message: m.botStarting } });
        },
      );
      // The start set the symbol up: isolated at 2×.
      expect(bybit.book.tradeMode.get('BNBUSDT')).toBe(1);
      expect(bybit.book.leverageOf('BNBUSDT')).toBe(2);
    } finally {
      await bybit.close();
    }
  }, 60_000);

  it('starts a neutral futures grid on an OKX key, whose sells open shorts in net mode', async () => {
    const auth = await liveTrader();
    const okx = await FakeOkxServer.start({ apiKey: 'k', secret: 's', passphrase: 'p' });
    okx.setPrice('XRPUSDT', 'future', '2');
    t.feed.setPrice('XRPUSDT', 'future', '2');
    const adapter = new OkxExchange({
      apiKey: 'k',
      secret: 's',
      passphrase: 'p',
      baseUrl: okx.url,
      enableRateLimit: false,
    });
    try {
      await tradingOn(
        () => adapter,
        async () => {
          const neutral = await call(t, 'POST', '/api/startgrid', gridOn('XRPUSDT', 2, 'neutral'), auth);
          expect(neutral).toMatchObject({ status: 200, body: { message: m.botStarting } });
        },
      );
      expect(okx.book.leverageOf('XRP-USDT-SWAP')).toBe(2);
    } finally {
      await okx.close();
    }
  }, 60_000);

  it('refuses a short or neutral futures grid on an exchange whose adapter sends every futures sell reduce-only', async () => {
    const auth = await liveTrader();
    const bybit = await FakeBybitServer.start({ apiKey: 'k', secret: 's' });
    const adapter = new BybitExchange({
      apiKey: 'k',
      secret: 's',
      baseUrl: bybit.url,
      enableRateLimit: false,
    });
    // The Bybit adapter as one that cannot open shorts.
    const longOnly = Object.assign(Object.create(adapter) as BybitExchange, { opensShorts: false });
    try {
      await tradingOn(
        () => longOnly,
        async () => {
          for (const direction of ['short', 'neutral']) {
            const refused = await call(t, 'POST', '/api/startgrid', gridOn('SOLUSDT', 150, direction), auth);
            expect(refused).toMatchObject({ status: 400, body: { message: LIVE_LONG_ONLY } });
          }
        },
      );
    } finally {
      await bybit.close();
    }
  }, 60_000);
});
