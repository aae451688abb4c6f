import { money } from '@gridbot/shared';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestBudget } from '../budget/request-budget';
import type { PlaceOrderInput } from '../exchange-port';
import { eventually, rejection, sendOnceThenAsk } from '../testing/exchange-contract';
import { FakeBinanceServer, type Fault, TIMEOUT_UNKNOWN } from '../testing/fake-binance-server';
import { virtualBudget } from '../testing/virtual-budget';
import { BinanceExchange } from './binance-exchange';
import { HEDGE_MODE_MESSAGE } from './ccxt-errors';

function adapterFor(fake: FakeBinanceServer, budget: RequestBudget = virtualBudget().budget) {
  return new BinanceExchange({
    apiKey: fake.apiKey,
    secret: fake.secret,
    baseUrl: fake.url,
    enableRateLimit: false,
    retry: { sleep: async () => {}, random: () => 0.5 },
    budget,
    timeoutMs: 2_000,
  });
}

const buy: PlaceOrderInput = {
  market: 'spot',
  symbol: 'BTCUSDT',
  side: 'buy',
  type: 'market',
  clientOrderId: 'bot1-1',
  quantity: '0.01',
};

describe('Binance faults: an order is sent once, then asked about', () => {
  let fake: FakeBinanceServer;
  afterEach(async () => {
    await fake.close();
  });

  const executed: [string, Fault][] = [
    ['-1007 after the order executed', { kind: 'executedThenError', status: 503, body: TIMEOUT_UNKNOWN }],
    ['the response lost after execution', { kind: 'executedThenDrop' }],
  ];
  it.each(executed)(
    '%s: the outcome is unknown, the look-up finds the fill with its fee, one order in all',
    async (_, fault) => {
      fake = await FakeBinanceServer.start();
      fake.setPrice('BTCUSDT', 'spot', '50000');
      fake.inject('POST /api/v3/order', fault);
      const adapter = adapterFor(fake);
      const error = await rejection(adapter.placeOrder(buy));
      expect(error.kind).toBe('unknown');
      expect(fake.orderPosts()).toHaveLength(1);

      const order = await sendOnceThenAsk(adapter, buy);
      expect(fake.book.executedWithId('bot1-1')).toHaveLength(1);
      expect(fake.orderPosts()).toHaveLength(1);
      // Fee and quantity from GET /api/v3/myTrades, since the queried order has no fills.
      expect(order).toMatchObject({
        status: 'FILLED',
        filledQuantity: '0.01',
        fee: '0.00001',
        feeAsset: 'BTC',
      });
      expect(fake.requests.some((r) => r.path === '/api/v3/myTrades')).toBe(true);
      expect(fake.book.spot.get('BTC')?.free.toFixed()).toBe('0.00999');
    },
  );

  const late: [string, 'timeout' | 'drop'][] = [
    ['-1007 before the matching engine had it', 'timeout'],
    ['the response lost before the matching engine had it', 'drop'],
  ];
  it.each(late)(
    '%s: "does not exist" until the order executes within recvWindow, which bounds how long to ask',
    async (_, answer) => {
      fake = await FakeBinanceServer.start();
      fake.setPrice('BTCUSDT', 'spot', '50000');
      fake.inject('POST /api/v3/order', { kind: 'lateOrder', answer, delayMs: 300 });
      const adapter = new BinanceExchange({
        apiKey: fake.apiKey,
        secret: fake.secret,
        baseUrl: fake.url,
        enableRateLimit: false,
        retry: { sleep: async () => {}, random: () => 0.5 },
        budget: virtualBudget().budget,
        timeoutMs: 2_000,
        recvWindowMs: 2_000,
      });
      // recvWindow, plus the lead of our clock over Binance's that its timing check allows (1000 ms).
      expect(adapter.lateOrderWindowMs).toBe(3_000);
      expect((await rejection(adapter.placeOrder(buy))).kind).toBe('unknown');
      expect(await adapter.fetchOrder('spot', 'BTCUSDT', 'bot1-1')).toEqual({ found: false });
      await eventually(async () =>
        expect(await adapter.fetchOrder('spot', 'BTCUSDT', 'bot1-1')).toMatchObject({
          found: true,
          order: { status: 'FILLED', filledQuantity: '0.01' },
        }),
      );
      expect(fake.orderPosts()).toHaveLength(1);
    },
  );

  const notExecuted: [string, Fault][] = [
    ['connection reset before the request reached the server', { kind: 'resetBefore' }],
    [
      'HTTP 5xx before execution',
      {
        kind: 'answer',
        status: 502,
        body: { code: -1001, msg: 'Internal error; unable to process your request. Please try again.' },
      },
    ],
  ];
  it.each(notExecuted)(
    '%s: looked up, not found, sent again with the same id: one order',
    async (_, fault) => {
      fake = await FakeBinanceServer.start();
      fake.setPrice('BTCUSDT', 'spot', '50000');
      fake.inject('POST /api/v3/order', fault);
      const adapter = adapterFor(fake);
      const order = await sendOnceThenAsk(adapter, buy);
      expect(order.status).toBe('FILLED');
      expect(fake.book.executedWithId('bot1-1')).toHaveLength(1);
      expect(fake.book.orders.filter((o) => o.clientOrderId === 'bot1-1')).toHaveLength(1);
      const posts = fake.requests.filter((r) => r.method === 'POST' && r.path === '/api/v3/order');
      expect(posts.map((r) => r.params.newClientOrderId)).toEqual(['bot1-1', 'bot1-1']);
    },
  );

  it('429 on the order: not executed, unknown, asked about after Retry-After, then sent once', async () => {
    fake = await FakeBinanceServer.start();
    fake.setPrice('BTCUSDT', 'spot', '50000');
    fake.inject('POST /api/v3/order', { kind: 'rateLimit', status: 429, retryAfterSec: 3 });
    const { budget, waits } = virtualBudget();
    const order = await sendOnceThenAsk(adapterFor(fake, budget), buy);
    expect(order.status).toBe('FILLED');
    expect(waits).toContain(3_000);
    expect(fake.book.executedWithId('bot1-1')).toHaveLength(1);
  });

  it('418: every client of the process stops until the ban ends, then carries on', async () => {
    fake = await FakeBinanceServer.start();
    fake.setPrice('BTCUSDT', 'spot', '50000');
    fake.inject('/api/v3/account', { kind: 'rateLimit', status: 418, retryAfterSec: 120 });
    // One virtual clock for the budget and the fake's ban: waiting 120 s ends the ban.
    const { budget, waits } = virtualBudget({
      onSleep: (ms) => {
        fake.bannedUntilMs -= ms;
      },
    });
    const first = adapterFor(fake, budget);
    const second = adapterFor(fake, budget);
    await first.balances('spot');
    expect(waits).toEqual([120_000]);
    const before = fake.requests.length;
    const order = await sendOnceThenAsk(second, buy);
    expect(order.status).toBe('FILLED');
    expect(fake.requests.slice(before).every((r) => r.outcome === 'answered')).toBe(true);
  });

  it('Binance accepts a reused client order id once the earlier order is filled; the adapter never sends it', async () => {
    fake = await FakeBinanceServer.start();
    fake.setPrice('BTCUSDT', 'spot', '50000');
    fake.book.newOrder('spot', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.01',
      newClientOrderId: 'x-1',
    });
    // Binance's own rule: the filled order's id is free again.
    fake.book.newOrder('spot', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.01',
      newClientOrderId: 'x-1',
    });
    expect(fake.book.executedWithId('x-1')).toHaveLength(2);
    // The adapter looks the id up first and answers the order that exists.
    const again = await adapterFor(fake).placeOrder({ ...buy, clientOrderId: 'x-1' });
    expect(again.status).toBe('FILLED');
    expect(fake.book.executedWithId('x-1')).toHaveLength(2);
  });

  it('a reduce-only futures exit below the minimum notional goes out (-4164 exempts it)', async () => {
    fake = await FakeBinanceServer.start();
    fake.setPrice('ETHUSDT', 'future', '2000');
    const adapter = adapterFor(fake);
    await adapter.transfer('spot_to_future', '100');
    await adapter.setLeverage('ETHUSDT', 5);
    await adapter.placeOrder({
      market: 'future',
      symbol: 'ETHUSDT',
      side: 'buy',
      type: 'market',
      clientOrderId: 'f-1',
      quantity: '0.011',
    });
    const small = await rejection(
      adapter.placeOrder({
        market: 'future',
        symbol: 'ETHUSDT',
        side: 'buy',
        type: 'market',
        clientOrderId: 'f-2',
        quantity: '0.001',
      }),
    );
    expect(small.code).toBe(-1013);
    const exit = await adapter.placeOrder({
      market: 'future',
      symbol: 'ETHUSDT',
      side: 'sell',
      type: 'market',
      clientOrderId: 'f-3',
      quantity: '0.001',
      reduceOnly: true,
    });
    expect(exit).toMatchObject({ status: 'FILLED', filledQuantity: '0.001', fee: '0.001', feeAsset: 'USDT' });
    expect(fake.book.positions.get('ETHUSDT')?.qty.toFixed()).toBe('0.01');
  });

  it('the fake refuses a non-reduce-only futures order below the minimum notional with -4164', () => {
    return FakeBinanceServer.start().then((f) => {
      fake = f;
      fake.setPrice('ETHUSDT', 'future', '2000');
      expect(() =>
        fake.book.newOrder('future', { symbol: 'ETHUSDT', side: 'BUY', type: 'MARKET', quantity: '0.001' }),
      ).toThrow(/-4164 Order's notional must be no smaller than 20 \(unless you choose reduce only\)/);
    });
  });

  it('an exit of a position that is gone is refused with -2022', async () => {
    fake = await FakeBinanceServer.start();
    fake.setPrice('ETHUSDT', 'future', '2000');
    const error = await rejection(
      adapterFor(fake).placeOrder({
        market: 'future',
        symbol: 'ETHUSDT',
        side: 'sell',
        type: 'market',
        clientOrderId: 'g-1',
        quantity: '0.01',
        reduceOnly: true,
      }),
    );
    expect(error).toMatchObject({
      kind: 'rejected',
      code: -2022,
      userMessage: 'ReduceOnly Order is rejected.',
    });
  });

  it('a hedge-mode account gets a clear message when its futures are set up, before any order', async () => {
    fake = await FakeBinanceServer.start();
    fake.book.dualSidePosition = true;
    const error = await rejection(adapterFor(fake).setLeverage('BTCUSDT', 3));
    expect(error).toMatchObject({ kind: 'rejected', userMessage: HEDGE_MODE_MESSAGE });
    expect(fake.requests.some((r) => r.path === '/fapi/v1/order')).toBe(false);
  });

  it('a hedge-mode order refused: an account switched after its one-way answer gets the same clear message, and is asked again', async () => {
    // [USDⓈ-M] "Error Codes" -4061 "Order's position side does not match user's setting.": an order without a
    // position side on an account in hedge mode. The double refuses it so.
    fake = await FakeBinanceServer.start();
    fake.setPrice('ETHUSDT', 'future', '2000');
    fake.book.futuresWallet = money('1000');
    const adapter = adapterFor(fake);
    await adapter.setLeverage('ETHUSDT', 2);
    fake.book.dualSidePosition = true;
    const error = await rejection(
      adapter.placeOrder({
        market: 'future',
        symbol: 'ETHUSDT',
        side: 'buy',
        type: 'market',
        clientOrderId: 'h-1',
        quantity: '0.1',
      }),
    );
    expect(error).toMatchObject({
      kind: 'rejected',
      code: -4061,
      reason: 'position_mode',
      userMessage: HEDGE_MODE_MESSAGE,
    });
    // The next opening reads the mode again, and is refused before any order.
    const modeReads = () => fake.requests.filter((r) => r.path === '/fapi/v1/positionSide/dual').length;
    const before = modeReads();
    expect(await rejection(adapter.setLeverage('ETHUSDT', 2))).toMatchObject({
      userMessage: HEDGE_MODE_MESSAGE,
    });
    expect(modeReads()).toBe(before + 1);
  });

  it('sets and verifies isolated margin and leverage; the position shows the exchange’s liquidation price', async () => {
    fake = await FakeBinanceServer.start();
    fake.setPrice('ETHUSDT', 'future', '2000');
    const adapter = adapterFor(fake);
    await adapter.transfer('spot_to_future', '1000');
    await adapter.setLeverage('ETHUSDT', 10);
    expect(fake.book.marginType.get('ETHUSDT')).toBe('ISOLATED');
    await adapter.placeOrder({
      market: 'future',
      symbol: 'ETHUSDT',
      side: 'buy',
      type: 'market',
      clientOrderId: 'p-1',
      quantity: '0.5',
    });
    const position = await adapter.position('ETHUSDT');
    expect(position?.liquidationPrice).toBe(fake.book.liquidationPrice('ETHUSDT')?.toFixed());
    expect(position?.isolatedMargin).toBe('100');
  });

  it('BINANCE_REST_URL: every REST call (/api, /sapi, /fapi) goes to the given origin', async () => {
    fake = await FakeBinanceServer.start();
    const adapter = adapterFor(fake);
    await adapter.balances('spot');
    await adapter.transfer('spot_to_future', '10');
    await adapter.balances('future');
    const paths = fake.requests.map((r) => r.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/api/v3/account', '/sapi/v1/asset/transfer', '/fapi/v2/balance']),
    );
  });
});
