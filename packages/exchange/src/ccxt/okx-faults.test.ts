import { afterEach, describe, expect, it } from 'vitest';
import type { PlaceOrderInput } from '../exchange-port';
import { eventually, rejection, sendOnceThenAsk } from '../testing/exchange-contract';
import { FakeOkxServer, type OkxFault } from '../testing/fake-okx-server';
import { fromOkxCode, OKX_HEDGE_MODE_MESSAGE } from './okx-errors';
import { OkxExchange } from './okx-exchange';
import { clOrdIdOf } from './okx-normalize';

function adapterFor(fake: FakeOkxServer) {
  return new OkxExchange({
    apiKey: fake.apiKey,
    secret: fake.secret,
    passphrase: fake.passphrase,
    baseUrl: fake.url,
    enableRateLimit: false,
    retry: { sleep: async () => {}, random: () => 0.5 },
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
const sentId = clOrdIdOf('bot1-1');

describe('OKX faults: an order is sent once, then asked about', () => {
  let fake: FakeOkxServer;
  afterEach(async () => {
    await fake.close();
  });

  const executed: [string, OkxFault][] = [
    ['HTTP 502 after the order was accepted', { kind: 'executedThenError', status: 502 }],
    ['the answer lost after the order was accepted', { kind: 'executedThenDrop' }],
  ];
  it.each(executed)(
    '%s: unknown, the look-up finds the fill with its fee, one order in all',
    async (_, fault) => {
      fake = await FakeOkxServer.start();
      fake.setPrice('BTCUSDT', 'spot', '50000');
      fake.inject('POST /api/v5/trade/order', fault);
      const adapter = adapterFor(fake);
      expect((await rejection(adapter.placeOrder(buy))).kind).toBe('unknown');
      const order = await sendOnceThenAsk(adapter, buy);
      expect(fake.orderPosts()).toHaveLength(1);
      expect(fake.book.executedWithClOrdId(sentId)).toHaveLength(1);
      // 0.1 % of the 0.01 BTC bought, from /api/v5/trade/fills (fee -0.00001 BTC there: charged).
      expect(order).toMatchObject({
        status: 'FILLED',
        filledQuantity: '0.01',
        filledQuote: '500',
        fee: '0.00001',
        feeAsset: 'BTC',
      });
      expect(fake.requests.some((r) => r.path === '/api/v5/trade/fills')).toBe(true);
      expect(fake.book.free('BTC').toFixed()).toBe('0.00999');
    },
  );

  it.each([
    ['HTTP 502', 'error'],
    ['no answer', 'drop'],
  ] as const)(
    '%s before the engine had it: "none" until it executes within the window, one order',
    async (_, answer) => {
      fake = await FakeOkxServer.start();
      fake.setPrice('BTCUSDT', 'spot', '50000');
      fake.inject('POST /api/v5/trade/order', { kind: 'lateOrder', answer, delayMs: 300 });
      const adapter = adapterFor(fake);
      // A request expires 30 s after its timestamp, plus the second our clock may lead OKX's.
      expect(adapter.lateOrderWindowMs).toBe(31_000);
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

  const notExecuted: [string, OkxFault][] = [
    ['connection reset before the request arrived', { kind: 'resetBefore' }],
    ['HTTP 503 before the engine had it', { kind: 'answer', status: 503, body: 'Service Unavailable' }],
    ['50011 rate limit reached', { kind: 'rateLimited' }],
  ];
  it.each(notExecuted)(
    '%s: looked up, none, sent again with the same clOrdId: one order',
    async (_, fault) => {
      fake = await FakeOkxServer.start();
      fake.setPrice('BTCUSDT', 'spot', '50000');
      fake.inject('POST /api/v5/trade/order', fault);
      const order = await sendOnceThenAsk(adapterFor(fake), buy);
      expect(order.status).toBe('FILLED');
      expect(fake.book.executedWithClOrdId(sentId)).toHaveLength(1);
      const posts = fake.requests.filter((r) => r.method === 'POST' && r.path === '/api/v5/trade/order');
      expect(posts.map((r) => r.params.clOrdId)).toEqual([sentId, sentId]);
    },
  );

  it('the double refuses a used clOrdId (51016); the adapter finds the order first and never sends it twice', async () => {
    fake = await FakeOkxServer.start();
    fake.setPrice('BTCUSDT', 'spot', '50000');
    const adapter = adapterFor(fake);
    await adapter.placeOrder(buy);
    const body = {
      instId: 'BTC-USDT',
      tdMode: 'cash',
      side: 'buy',
      ordType: 'market',
      sz: '0.01',
      clOrdId: sentId,
    };
    expect(() => fake.book.place(body)).toThrow(/51016 Duplicated clOrdId/);
    // The adapter never sends it twice: it finds the order first.
    await adapter.placeOrder(buy);
    expect(fake.orderPosts()).toHaveLength(1);
  });

  it('an account in long/short mode is switched to net mode before its first swap order when it can be', async () => {
    fake = await FakeOkxServer.start();
    fake.book.posMode = 'long_short_mode';
    await adapterFor(fake).setLeverage('BTCUSDT', 3);
    expect(fake.book.posMode).toBe('net_mode');
    expect(fake.book.leverageOf('BTC-USDT-SWAP')).toBe(3);
  });

  it('an account in long/short mode OKX will not switch (an open swap order) is refused with reason position_mode, before any order', async () => {
    fake = await FakeOkxServer.start();
    fake.setPrice('BTCUSDT', 'future', '50000');
    fake.book.posMode = 'long_short_mode';
    fake.book.place({
      instId: 'BTC-USDT-SWAP',
      tdMode: 'isolated',
      side: 'buy',
      posSide: 'long',
      ordType: 'limit',
      px: '40000',
      sz: '1',
      clOrdId: 'outside1',
    });
    const adapter = adapterFor(fake);
    const error = await rejection(adapter.placeOrder({ ...buy, market: 'future', clientOrderId: 'h-1' }));
    expect(error).toMatchObject({
      kind: 'rejected',
      reason: 'position_mode',
      userMessage: OKX_HEDGE_MODE_MESSAGE,
    });
    expect(fake.orderPosts()).toHaveLength(0);
  });

  it('an order refused for its posSide (the mode changed behind the bot) carries reason position_mode', async () => {
    fake = await FakeOkxServer.start();
    fake.setPrice('BTCUSDT', 'future', '50000');
    const adapter = adapterFor(fake);
    await adapter.setLeverage('BTCUSDT', 3);
    fake.book.posMode = 'long_short_mode';
    const error = await rejection(adapter.placeOrder({ ...buy, market: 'future', clientOrderId: 'h-2' }));
    expect(error).toMatchObject({ kind: 'rejected', reason: 'position_mode' });
    expect(fromOkxCode(51000, 'Parameter sz error', undefined).reason).toBeUndefined();
  });

  it('a liquidation shows as a forced close with the margin lost', async () => {
    fake = await FakeOkxServer.start();
    fake.setPrice('ETHUSDT', 'future', '2000');
    const adapter = adapterFor(fake);
    await adapter.setLeverage('ETHUSDT', 10);
    const since = fake.now();
    await adapter.placeOrder({
      ...buy,
      market: 'future',
      symbol: 'ETHUSDT',
      clientOrderId: 'l-1',
      quantity: '0.5',
    });
    // 0.5 ETH is 5 contracts of 0.1 ETH; margin 0.5 × 2000 / 10 = 100.
    expect(await adapter.position('ETHUSDT')).toMatchObject({
      quantity: '0.5',
      leverage: 10,
      isolatedMargin: '100',
      entryPrice: '2000',
    });
    fake.setPrice('ETHUSDT', 'future', '1700');
    expect(await adapter.position('ETHUSDT')).toBeUndefined();
    const closes = await adapter.forcedCloses('ETHUSDT', since);
    expect(closes).toHaveLength(1);
    expect(closes[0]).toMatchObject({
      reason: 'liquidation',
      quantity: '0.5',
      averagePrice: '1700',
      quote: '850',
      fee: '0',
      realizedPnl: '-100',
    });
  });

  it('lists every open order of a grid, page after page (more than one page of 100), under the runtime’s ids', async () => {
    fake = await FakeOkxServer.start();
    fake.setPrice('BTCUSDT', 'spot', '50000');
    fake.book.cash.set('USDT', fake.book.cash.get('USDT')!.plus(100_000));
    const adapter = adapterFor(fake);
    const packed = Buffer.from('00112233445566778899aabbccddeeff', 'hex').toString('base64url');
    for (let i = 0; i < 120; i += 1)
      fake.book.place({
        instId: 'BTC-USDT',
        tdMode: 'cash',
        side: 'buy',
        ordType: 'limit',
        sz: '0.001',
        px: String(40000 - i * 10),
        clOrdId: clOrdIdOf(`${packed}-${i.toString(36)}`),
      });
    const open = await adapter.openOrders('spot', 'BTCUSDT');
    expect(open).toHaveLength(120);
    expect(new Set(open.map((o) => o.clientOrderId)).size).toBe(120);
    expect(open.every((o) => o.clientOrderId.startsWith(`${packed}-`))).toBe(true);
    const pages = fake.requests.filter((r) => r.path === '/api/v5/trade/orders-pending');
    expect(pages).toHaveLength(2);
    expect(pages[1]?.params.after).toBe(open[99]?.exchangeOrderId);
  });
});
