import { money } from '@gridbot/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { rejection } from '../testing/exchange-contract';
import { type BybitFault, FakeBybitServer } from '../testing/fake-bybit-server';
import { FAULTED_BUY, sentOnceFaultCases } from '../testing/sent-once-faults';
import { virtualBudget } from '../testing/virtual-budget';
import { BYBIT_HEDGE_MODE_MESSAGE, fromBybitCode } from './bybit-errors';
import { BybitExchange } from './bybit-exchange';

function adapterFor(fake: FakeBybitServer, recvWindowMs?: number) {
  return new BybitExchange({
    apiKey: fake.apiKey,
    secret: fake.secret,
    baseUrl: fake.url,
    enableRateLimit: false,
    budget: virtualBudget().budget,
    retry: { sleep: async () => {}, random: () => 0.5 },
    timeoutMs: 2_000,
    ...(recvWindowMs ? { recvWindowMs } : {}),
  });
}

const buy = FAULTED_BUY;

describe('Bybit faults: an order is sent once, then asked about', () => {
  let fake: FakeBybitServer;
  afterEach(async () => {
    await fake.close();
  });

  sentOnceFaultCases<BybitFault, FakeBybitServer>({
    start: async () => {
      fake = await FakeBybitServer.start();
      return fake;
    },
    adapterFor: (double) => adapterFor(double),
    // recv_window, plus the 1000 ms our clock may lead Bybit's ("timestamp < server_time + 1000").
    lateAdapterFor: (double) => adapterFor(double, 2_000),
    lateOrderWindowMs: 3_000,
    orderTarget: 'POST /v5/order/create',
    idField: 'orderLinkId',
    sentId: 'bot1-1',
    executedWithId: (double, id) => double.book.executedWithLinkId(id),
    // Classic spot order rows carry no fee: it comes from the executions.
    fillsPath: '/v5/execution/list',
    freeBtc: (double) => double.book.spot.get('BTC')?.free.toFixed(),
    executed: [
      ['HTTP 502 after the order was accepted', { kind: 'executedThenError', status: 502 }],
      ['the answer lost after the order was accepted', { kind: 'executedThenDrop' }],
    ],
    notExecuted: [
      ['connection reset before the request arrived', { kind: 'resetBefore' }],
      ['HTTP 503 before the engine had it', { kind: 'answer', status: 503, body: 'Service Unavailable' }],
      ['10006 Too many visits', { kind: 'rateLimited', resetInMs: 1000 }],
    ],
    lateOrder: (answer) => ({ kind: 'lateOrder', answer, delayMs: 300 }),
  });

  it('the double refuses a used orderLinkId even after its order filled (110072 / 170141)', async () => {
    fake = await FakeBybitServer.start();
    fake.setPrice('BTCUSDT', 'spot', '50000');
    const sent = {
      category: 'spot',
      symbol: 'BTCUSDT',
      side: 'Sell',
      orderType: 'Limit',
      qty: '0.001',
      price: '60000',
      orderLinkId: 'x-1',
    };
    fake.book.balance('BTC').free = fake.book.balance('BTC').free.plus(1);
    fake.book.create(sent);
    fake.book.cancel('spot', 'BTCUSDT', { orderLinkId: 'x-1' });
    expect(() => fake.book.create(sent)).toThrow(/170141 Duplicate clientOrderId/);
  });

  it('a futures order carries its fee in USDT though Bybit names no fee coin, and Funding rows are no fills', async () => {
    fake = await FakeBybitServer.start();
    fake.setPrice('BTCUSDT', 'future', '50000');
    const adapter = adapterFor(fake);
    await adapter.transfer('spot_to_future', '1000');
    await adapter.setLeverage('BTCUSDT', 5);
    const open = await adapter.placeOrder({ ...buy, market: 'future', clientOrderId: 'f-1' });
    // 0.05 % of 0.01 × 50,000 = 0.25 USDT; the linear execution row's feeCurrency is "".
    expect(open).toMatchObject({ fee: '0.25', feeAsset: 'USDT', filledQuote: '500' });
    fake.book.settleFunding('BTCUSDT', '0.0001');
    const again = await adapter.fetchOrder('future', 'BTCUSDT', 'f-1');
    expect(again).toMatchObject({ found: true, order: { fee: '0.25', filledQuantity: '0.01' } });
    // Funding of 0.01 × 50,000 × 0.0001 = 0.05 USDT left the wallet, not the order's books.
    expect(fake.book.contractCash.toFixed()).toBe(String(1000 - 100 - 0.25 - 0.05));
  });

  it('a liquidation shows as a forced close with the margin lost; a Funding row beside it is not part of it', async () => {
    fake = await FakeBybitServer.start();
    fake.setPrice('ETHUSDT', 'future', '2000');
    const adapter = adapterFor(fake);
    await adapter.transfer('spot_to_future', '1000');
    await adapter.setLeverage('ETHUSDT', 10);
    const since = fake.now();
    await adapter.placeOrder({
      ...buy,
      market: 'future',
      symbol: 'ETHUSDT',
      clientOrderId: 'l-1',
      quantity: '0.5',
    });
    const position = await adapter.position('ETHUSDT');
    expect(position).toMatchObject({ leverage: 10, isolatedMargin: '100', entryPrice: '2000' });
    // (0.5 × 2000 − 100) / (0.5 × (1 − mmr)), the exchange's own figure.
    expect(position?.liquidationPrice).toBe(fake.book.liqPrice('ETHUSDT')?.toDecimalPlaces(2).toFixed());
    fake.book.settleFunding('ETHUSDT', '0.0001');
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

  it('a short receives funding at a positive rate: a Funding row of negative execFee, not a fill', async () => {
    fake = await FakeBybitServer.start();
    fake.setPrice('ETHUSDT', 'future', '2000');
    fake.book.contractCash = money('1000');
    const adapter = adapterFor(fake);
    await adapter.setLeverage('ETHUSDT', 2);
    const sold = await adapter.placeOrder({
      ...buy,
      side: 'sell',
      reduceOnly: false,
      market: 'future',
      symbol: 'ETHUSDT',
      clientOrderId: 'f-1',
      quantity: '0.5',
    });
    // 1000 − margin 500 − fee 0.5.
    expect(fake.book.contractCash.toFixed()).toBe('499.5');
    // 0.5 × 2000 × 0.0001 = 0.1 paid by the longs to this short.
    fake.book.settleFunding('ETHUSDT', '0.0001');
    expect(fake.book.contractCash.toFixed()).toBe('499.6');
    expect(fake.book.executions.find((e) => e.execType === 'Funding')).toMatchObject({ side: 'Sell' });
    expect(fake.book.executions.find((e) => e.execType === 'Funding')?.execFee.toFixed()).toBe('-0.1');
    const read = await adapter.fetchOrder('future', 'ETHUSDT', 'f-1');
    expect(read).toMatchObject({ found: true, order: { filledQuantity: sold.filledQuantity, fee: '0.5' } });
  });

  it('a short is liquidated at or above its liquidation price: a BustTrade Buy, the margin lost', async () => {
    fake = await FakeBybitServer.start();
    fake.setPrice('ETHUSDT', 'future', '2000');
    const adapter = adapterFor(fake);
    await adapter.transfer('spot_to_future', '1000');
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
    // Margin 0.5 × 2000 / 10 = 100; ETHUSDT's lowest maintenance rate is 0.4 %: the short's liquidation price
    // is (0.5 × 2000 + 100) / (0.5 × 1.004) = 2191.2350…, shown to the cent.
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
    expect(fake.book.executions.find((e) => e.execType === 'BustTrade')).toMatchObject({ side: 'Buy' });
    expect(await adapter.forcedCloses('ETHUSDT', since)).toMatchObject([
      { reason: 'liquidation', quantity: '0.5', averagePrice: '2300', quote: '1150', realizedPnl: '-100' },
    ]);
  });

  it('a hedge-mode symbol is switched to one-way before its first order when it can be', async () => {
    fake = await FakeBybitServer.start();
    fake.book.hedgeMode.add('BTCUSDT');
    await adapterFor(fake).setLeverage('BTCUSDT', 3);
    expect(fake.book.hedgeMode.has('BTCUSDT')).toBe(false);
    expect(fake.book.tradeMode.get('BTCUSDT')).toBe(1);
    expect(fake.book.leverageOf('BTCUSDT')).toBe(3);
  });

  it('a hedge-mode symbol Bybit will not switch (open orders) is refused with reason position_mode, before any order', async () => {
    fake = await FakeBybitServer.start();
    fake.setPrice('BTCUSDT', 'future', '50000');
    fake.book.hedgeMode.add('BTCUSDT');
    fake.book.contractCash = fake.book.contractCash.plus(1000);
    fake.book.create({
      category: 'linear',
      symbol: 'BTCUSDT',
      side: 'Buy',
      orderType: 'Limit',
      qty: '0.01',
      price: '40000',
      positionIdx: 1,
    });
    const error = await rejection(adapterFor(fake).setLeverage('BTCUSDT', 3));
    expect(error).toMatchObject({
      kind: 'rejected',
      reason: 'position_mode',
      userMessage: BYBIT_HEDGE_MODE_MESSAGE,
    });
    expect(fake.requests.some((r) => r.path === '/v5/order/create')).toBe(false);
  });

  it('an order refused for its position idx (the mode changed behind the bot) carries reason position_mode', async () => {
    fake = await FakeBybitServer.start();
    fake.setPrice('BTCUSDT', 'future', '50000');
    const adapter = adapterFor(fake);
    await adapter.transfer('spot_to_future', '1000');
    await adapter.setLeverage('BTCUSDT', 3);
    fake.book.hedgeMode.add('BTCUSDT');
    const error = await rejection(adapter.placeOrder({ ...buy, market: 'future', clientOrderId: 'h-1' }));
    expect(error).toMatchObject({ kind: 'rejected', reason: 'position_mode' });
    expect(fromBybitCode(10001, 'params error: qty invalid', undefined).reason).toBeUndefined();
  });

  it('an exit of a position held in cross margin goes out: the margin mode is not touched for it', async () => {
    fake = await FakeBybitServer.start();
    fake.setPrice('BTCUSDT', 'future', '50000');
    // A long opened outside the platform in cross margin (tradeMode 0, Bybit's default).
    fake.book.contractCash = fake.book.contractCash.plus(1000);
    fake.book.create({
      category: 'linear',
      symbol: 'BTCUSDT',
      side: 'Buy',
      orderType: 'Market',
      qty: '0.01',
    });
    const exit = await adapterFor(fake).placeOrder({
      ...buy,
      market: 'future',
      side: 'sell',
      clientOrderId: 'x-out',
      reduceOnly: true,
    });
    expect(exit).toMatchObject({ status: 'FILLED', filledQuantity: '0.01' });
    expect(fake.requests.some((r) => r.path === '/v5/position/switch-isolated')).toBe(false);
  });

  it('lists every open order of a grid, page after page (more than one page of 50)', async () => {
    fake = await FakeBybitServer.start();
    fake.setPrice('BTCUSDT', 'spot', '50000');
    fake.book.balance('USDT').free = fake.book.balance('USDT').free.plus(100_000);
    const adapter = adapterFor(fake);
    for (let i = 0; i < 60; i += 1)
      fake.book.create({
        category: 'spot',
        symbol: 'BTCUSDT',
        side: 'Buy',
        orderType: 'Limit',
        qty: '0.001',
        price: String(40000 - i * 10),
        orderLinkId: `g-${i}`,
      });
    const open = await adapter.openOrders('spot', 'BTCUSDT');
    expect(open).toHaveLength(60);
    expect(new Set(open.map((o) => o.clientOrderId)).size).toBe(60);
    expect(fake.requests.filter((r) => r.path === '/v5/order/realtime').map((r) => r.params.cursor)).toEqual([
      undefined,
      '50',
    ]);
  });

  it('a reduce-only exit below the minimum order value goes out; an opening order that small is refused', async () => {
    fake = await FakeBybitServer.start();
    fake.setPrice('ETHUSDT', 'future', '2000');
    const adapter = adapterFor(fake);
    await adapter.transfer('spot_to_future', '100');
    await adapter.setLeverage('ETHUSDT', 5);
    await adapter.placeOrder({
      ...buy,
      market: 'future',
      symbol: 'ETHUSDT',
      clientOrderId: 'm-1',
      quantity: '0.011',
    });
    const small = await rejection(
      adapter.placeOrder({
        ...buy,
        market: 'future',
        symbol: 'ETHUSDT',
        clientOrderId: 'm-2',
        quantity: '0.001',
      }),
    );
    expect(small).toMatchObject({ code: -1013, reason: 'below_minimum' });
    const exit = await adapter.placeOrder({
      ...buy,
      market: 'future',
      symbol: 'ETHUSDT',
      side: 'sell',
      clientOrderId: 'm-3',
      quantity: '0.001',
      reduceOnly: true,
    });
    expect(exit).toMatchObject({ status: 'FILLED', filledQuantity: '0.001', fee: '0.001', feeAsset: 'USDT' });
    expect(fake.book.positions.get('ETHUSDT')?.size.toFixed()).toBe('0.01');
  });
});
