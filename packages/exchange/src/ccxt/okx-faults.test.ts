import { afterEach, describe, expect, it } from 'vitest';
import { rejection } from '../testing/exchange-contract';
import { FakeOkxServer, type OkxFault } from '../testing/fake-okx-server';
import { FAULTED_BUY, sentOnceFaultCases } from '../testing/sent-once-faults';
import { virtualBudget } from '../testing/virtual-budget';
import { fromOkxCode, OKX_HEDGE_MODE_MESSAGE } from './okx-errors';
import { OkxExchange } from './okx-exchange';
import { clOrdIdOf } from './okx-normalize';

function adapterFor(fake: FakeOkxServer, options: { orderDeadlineMs?: number } = {}) {
  return new OkxExchange({
    ...options,
    apiKey: fake.apiKey,
    secret: fake.secret,
    passphrase: fake.passphrase,
    baseUrl: fake.url,
    enableRateLimit: false,
    budget: virtualBudget().budget,
    retry: { sleep: async () => {}, random: () => 0.5 },
    timeoutMs: 2_000,
  });
}

const buy = FAULTED_BUY;
const sentId = clOrdIdOf('bot1-1');

describe('OKX faults: an order is sent once, then asked about', () => {
  let fake: FakeOkxServer;
  afterEach(async () => {
    await fake.close();
  });

  sentOnceFaultCases<OkxFault, FakeOkxServer>({
    start: async () => {
      fake = await FakeOkxServer.start();
      return fake;
    },
    adapterFor,
    // An order request is dead at its expTime, 5 s after it is signed, plus the second our clock may lead OKX's.
    lateAdapterFor: (fake) => adapterFor(fake),
    lateOrderWindowMs: 6_000,
    orderTarget: 'POST /api/v5/trade/order',
    idField: 'clOrdId',
    sentId,
    executedWithId: (double, id) => double.book.executedWithClOrdId(id),
    // The fee from /api/v5/trade/fills (fee -0.00001 BTC there: charged).
    fillsPath: '/api/v5/trade/fills',
    freeBtc: (double) => double.book.free('BTC').toFixed(),
    executed: [
      ['HTTP 502 after the order was accepted', { kind: 'executedThenError', status: 502 }],
      ['the answer lost after the order was accepted', { kind: 'executedThenDrop' }],
    ],
    notExecuted: [
      ['connection reset before the request arrived', { kind: 'resetBefore' }],
      ['HTTP 503 before the engine had it', { kind: 'answer', status: 503, body: 'Service Unavailable' }],
      ['50011 rate limit reached', { kind: 'rateLimited' }],
    ],
    lateOrder: (answer) => ({ kind: 'lateOrder', answer, delayMs: 300 }),
  });

  it('an order that reaches the engine after its expTime never executes, so "no such order" is final after the window', async () => {
    fake = await FakeOkxServer.start();
    fake.setPrice('BTCUSDT', 'spot', '50000');
    const adapter = adapterFor(fake, { orderDeadlineMs: 400 });
    expect(adapter.lateOrderWindowMs).toBe(1_400);
    // The answer is lost and the engine would take the order 1.5 s later: after its expTime.
    fake.inject('POST /api/v5/trade/order', { kind: 'lateOrder', answer: 'drop', delayMs: 1_500 });
    expect((await rejection(adapter.placeOrder(buy))).kind).toBe('unknown');
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    expect(await adapter.fetchOrder('spot', 'BTCUSDT', 'bot1-1')).toEqual({ found: false });
    expect(fake.book.executedWithClOrdId(sentId)).toHaveLength(0);
    expect(fake.book.free('BTC').toFixed()).toBe('0');
  });

  it('a request that arrives after its expTime is refused with 50036 and places nothing; sent once, the look-up decides', async () => {
    fake = await FakeOkxServer.start();
    fake.setPrice('BTCUSDT', 'spot', '50000');
    // OKX's clock 10 s ahead of ours: within the 30 s a timestamp lives, past the order's 5 s expTime.
    fake.clockSkewMs = 10_000;
    const error = await rejection(adapterFor(fake).placeOrder(buy));
    // Not processed, as a Binance -1021 outside recvWindow: the caller looks the order up before sending again.
    expect(error).toMatchObject({ kind: 'unknown', code: -1021 });
    expect(error.message).toMatch(/expTime/);
    expect(fake.book.executedWithClOrdId(sentId)).toHaveLength(0);
    expect(fake.orderPosts()).toHaveLength(1);
  });

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

  it('a net short is liquidated at or above its liquidation price, the margin lost', async () => {
    fake = await FakeOkxServer.start();
    fake.setPrice('ETHUSDT', 'future', '2000');
    const adapter = adapterFor(fake);
    await adapter.setLeverage('ETHUSDT', 10);
    const since = fake.now();
    await adapter.placeOrder({
      ...buy,
      side: 'sell',
      reduceOnly: false,
      market: 'future',
      symbol: 'ETHUSDT',
      clientOrderId: 's-1',
      quantity: '0.5',
    });
    // pos −5 contracts; margin 0.5 × 2000 / 10 = 100; ETHUSDT's lowest maintenance rate is 0.4 %: the short's
    // liquidation price is (0.5 × 2000 + 100) / (0.5 × 1.004) = 2191.2350…, shown to the cent.
    expect(fake.book.positions.get('ETH-USDT-SWAP')?.pos.toFixed()).toBe('-5');
    expect(await adapter.position('ETHUSDT')).toMatchObject({
      side: 'short',
      quantity: '0.5',
      isolatedMargin: '100',
      liquidationPrice: '2191.24',
    });
    fake.setPrice('ETHUSDT', 'future', '2191');
    expect(await adapter.position('ETHUSDT')).toMatchObject({ side: 'short' });
    fake.setPrice('ETHUSDT', 'future', '2300');
    expect(await adapter.position('ETHUSDT')).toBeUndefined();
    expect(fake.book.closedPositions).toMatchObject([{ type: '3', direction: 'short' }]);
    expect(await adapter.forcedCloses('ETHUSDT', since)).toMatchObject([
      { reason: 'liquidation', quantity: '0.5', averagePrice: '2300', quote: '1150', realizedPnl: '-100' },
    ]);
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
