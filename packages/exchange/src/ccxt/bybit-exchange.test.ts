import { money } from '@gridbot/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { adapterErrorCases } from '../testing/adapter-error-cases';
import { exchangeContract, rejection } from '../testing/exchange-contract';
import { type BybitFault, FakeBybitServer } from '../testing/fake-bybit-server';
import { virtualBudget } from '../testing/virtual-budget';
import { BYBIT_UNIFIED_ACCOUNT_MESSAGE } from './bybit-errors';
import { BybitExchange } from './bybit-exchange';
import { orderLinkIdOf, totalsOfExecutions } from './bybit-normalize';

const noDelay = { sleep: async () => {}, random: () => 0.5 };

function adapterFor(fake: FakeBybitServer, overrides: { apiKey?: string; secret?: string } = {}) {
  return new BybitExchange({
    apiKey: overrides.apiKey ?? fake.apiKey,
    secret: overrides.secret ?? fake.secret,
    baseUrl: fake.url,
    enableRateLimit: false,
    budget: virtualBudget().budget,
    retry: noDelay,
    timeoutMs: 2_000,
  });
}

exchangeContract('Bybit adapter on the loopback fake server', async () => {
  const fake = await FakeBybitServer.start();
  return {
    exchange: adapterFor(fake),
    setPrice: async (symbol, market, price) => fake.setPrice(symbol, market, price),
    close: () => fake.close(),
  };
});

describe('Bybit client order ids', () => {
  it('keeps an id Bybit accepts as it is, the runtime’s included', () => {
    // The runtime's form: 22 base64url characters, a dash, the sequence in base 36 (25 characters).
    expect(orderLinkIdOf('AbC_dEf-123456789012345-1z')).toBe('AbC_dEf-123456789012345-1z');
  });

  it('turns an id Bybit would refuse into a 36-character one of its alphabet, the same every time', () => {
    const long = `${'x'.repeat(40)}:7`;
    const id = orderLinkIdOf(long);
    expect(id).toMatch(/^[A-Za-z0-9_-]{36}$/);
    expect(orderLinkIdOf(long)).toBe(id);
    expect(orderLinkIdOf(`${'x'.repeat(40)}:8`)).not.toBe(id);
  });
});

describe('Bybit fills from executions', () => {
  it('adds up an order’s Trade rows and leaves Funding rows out', () => {
    const rows = [
      {
        orderId: 'o1',
        execType: 'Trade',
        execQty: '0.004',
        execValue: '200',
        execFee: '0.1',
        feeCurrency: '',
      },
      {
        orderId: '',
        execType: 'Funding',
        execQty: '0.01',
        execValue: '500',
        execFee: '0.05',
        feeCurrency: '',
      },
      {
        orderId: 'o1',
        execType: 'Trade',
        execQty: '0.006',
        execValue: '306',
        execFee: '0.153',
        feeCurrency: '',
      },
      { orderId: 'o2', execType: 'Trade', execQty: '1', execValue: '50000', execFee: '25', feeCurrency: '' },
    ];
    // 0.004 + 0.006 = 0.01 traded for 200 + 306 = 506; fee 0.1 + 0.153 = 0.253, in USDT (no feeCurrency on linear).
    expect(totalsOfExecutions(rows, 'o1', 'USDT')).toEqual({
      qty: '0.01',
      value: '506',
      fee: '0.253',
      feeAsset: 'USDT',
    });
  });

  it('takes the coin a spot row names, and the given one when the row names none', () => {
    const rows = [
      {
        orderId: 'o1',
        execType: 'Trade',
        execQty: '0.5',
        execValue: '1000',
        execFee: '0.0005',
        feeCurrency: 'ETH',
      },
    ];
    expect(totalsOfExecutions(rows, 'o1', 'USDT').feeAsset).toBe('ETH');
    expect(totalsOfExecutions([{ ...rows[0], feeCurrency: '' }], 'o1', 'ETH').feeAsset).toBe('ETH');
  });
});

describe('Bybit adapter requests and error mapping', () => {
  let fake: FakeBybitServer;
  afterEach(async () => {
    await fake.close();
  });

  it('signs with the X-BAPI headers and sends the rounded order with its orderLinkId', async () => {
    fake = await FakeBybitServer.start();
    fake.setPrice('BTCUSDT', 'spot', '50000');
    await adapterFor(fake).placeOrder({
      market: 'spot',
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'limit',
      clientOrderId: 'bot1-7',
      quantity: '0.0012345',
      price: '40000.004',
    });
    const post = fake.requests.find((r) => r.path === '/v5/order/create');
    expect(post?.apiKey).toBe(fake.apiKey);
    expect(post?.params).toMatchObject({
      category: 'spot',
      symbol: 'BTCUSDT',
      side: 'Buy',
      orderType: 'Limit',
      qty: '0.00123',
      price: '40000',
      timeInForce: 'GTC',
      orderLinkId: 'bot1-7',
    });
  });

  it('sends a classic spot market buy by value: 0.01234 BTC at 50,000 is qty 617', async () => {
    fake = await FakeBybitServer.start();
    fake.setPrice('BTCUSDT', 'spot', '50000');
    const order = await adapterFor(fake).placeOrder({
      market: 'spot',
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'market',
      clientOrderId: 'v-1',
      quantity: '0.01234',
    });
    expect(fake.requests.find((r) => r.path === '/v5/order/create')?.params.qty).toBe('617');
    // Fee 0.1 % of the coin bought: 0.00001234 BTC.
    expect(order).toMatchObject({
      quantity: '0.01234',
      filledQuantity: '0.01234',
      fee: '0.00001234',
      feeAsset: 'BTC',
    });
  });

  it('maps 10003 (bad key) to a fatal error without retrying', async () => {
    fake = await FakeBybitServer.start();
    const error = await rejection(adapterFor(fake, { apiKey: 'wrong' }).balances('spot'));
    expect(error).toMatchObject({ kind: 'fatal', code: -2015 });
    expect(fake.requests.filter((r) => r.path === '/v5/account/wallet-balance')).toHaveLength(1);
  });

  it('refuses a request signed with the wrong secret (10004)', async () => {
    fake = await FakeBybitServer.start();
    const error = await rejection(adapterFor(fake, { secret: 'not-it' }).balances('spot'));
    expect(error).toMatchObject({ kind: 'fatal', code: -1022 });
  });

  it('after an HTTP 403 (the IP went past its limit) no request leaves by that IP for 10 minutes', async () => {
    fake = await FakeBybitServer.start();
    const { budget, waits } = virtualBudget();
    const adapter = new BybitExchange({
      apiKey: fake.apiKey,
      secret: fake.secret,
      baseUrl: fake.url,
      enableRateLimit: false,
      budget,
      retry: noDelay,
    });
    fake.inject(
      '/v5/account/wallet-balance',
      { kind: 'answer', status: 403, body: 'access too frequent' },
      1,
    );
    // The read is retried, and its retry waits out the IP's pause first.
    expect((await adapter.balances('spot'))[0]).toMatchObject({ asset: 'USDT' });
    expect(waits).toEqual([600_000]);
  });

  it('tells a Unified Trading Account key that only classic accounts are supported', async () => {
    fake = await FakeBybitServer.start();
    fake.book.unified = true;
    const error = await rejection(adapterFor(fake).balances('spot'));
    expect(error).toMatchObject({ kind: 'fatal', userMessage: BYBIT_UNIFIED_ACCOUNT_MESSAGE });
  });

  it('reports "no answer" from fetchOrder as retryable, never as not found', async () => {
    fake = await FakeBybitServer.start();
    fake.inject('GET /v5/order/realtime', { kind: 'answer', status: 503, body: 'Service Unavailable' }, 10);
    expect((await rejection(adapterFor(fake).fetchOrder('spot', 'BTCUSDT', 'any'))).kind).toBe('retryable');
  });

  it('reads the key’s rights: trading without withdrawals, a read-only key, a key that can withdraw, an IP bound', async () => {
    fake = await FakeBybitServer.start();
    const adapter = adapterFor(fake);
    expect(await adapter.keyPermissions()).toEqual({
      ipRestrict: false,
      enableReading: true,
      enableSpotAndMarginTrading: true,
      enableFutures: true,
      enableWithdrawals: false,
    });
    fake.book.apiKeyInfo = { ...fake.book.apiKeyInfo, readOnly: 1 };
    expect(await adapter.keyPermissions()).toMatchObject({
      enableSpotAndMarginTrading: false,
      enableFutures: false,
    });
    fake.book.apiKeyInfo = {
      readOnly: 0,
      permissions: { ...fake.book.apiKeyInfo.permissions, Wallet: ['AccountTransfer', 'Withdraw'] },
      ips: ['203.0.113.7'],
    };
    expect(await adapter.keyPermissions()).toMatchObject({ enableWithdrawals: true, ipRestrict: true });
  });

  it('sends a futures order reduce-only as the order says: an opening Sell opens a short, a reduce-only Buy closes it', async () => {
    // One-way mode, isolated at 2×, 1000 USDT in the Contract wallet; ETHUSDT at 2000, taker fee 0.05 %.
    fake = await FakeBybitServer.start();
    fake.setPrice('ETHUSDT', 'future', '2000');
    fake.book.contractCash = money('1000');
    const adapter = adapterFor(fake);
    await adapter.setLeverage('ETHUSDT', 2);
    const order = (clientOrderId: string, side: 'buy' | 'sell', quantity: string, reduceOnly?: boolean) =>
      adapter.placeOrder({
        market: 'future',
        symbol: 'ETHUSDT',
        side,
        type: 'market',
        clientOrderId,
        quantity,
        ...(reduceOnly === undefined ? {} : { reduceOnly }),
      });
    const sent = (id: string) => fake.orderPosts().find((r) => r.params.orderLinkId === id)?.params;

    // Sell 0.5 not reduce-only: sent without reduceOnly, it opens a short of 0.5 at 2000 (margin 1000 / 2 =
    // 500, fee 0.05 % of 1000 = 0.5). Bybit shows it as side Sell, size 0.5.
    const opened = await order('open', 'sell', '0.5', false);
    expect(sent('open')).toMatchObject({ positionIdx: 0 });
    expect(sent('open')?.reduceOnly).toBeUndefined();
    expect(opened).toMatchObject({ status: 'FILLED', fee: '0.5' });
    expect(fake.book.positions.get('ETHUSDT')).toMatchObject({ side: 'Sell' });
    expect(fake.book.positions.get('ETHUSDT')?.size.toFixed()).toBe('0.5');
    expect(await adapter.position('ETHUSDT')).toMatchObject({
      side: 'short',
      quantity: '0.5',
      entryPrice: '2000',
      isolatedMargin: '500',
    });
    // A sell that does not say is a long-only bot's exit: reduce-only, refused with no long to reduce.
    expect(await rejection(order('exit', 'sell', '0.1'))).toMatchObject({ code: -2022 });
    expect(sent('exit')?.reduceOnly).toBe(true);

    // At 1900 a reduce-only Buy of 0.2 closes part of the short: PnL (2000 − 1900) × 0.2 = 20, margin 200
    // released, fee 0.2 × 1900 × 0.05 % = 0.19; 0.3 stays short.
    fake.setPrice('ETHUSDT', 'future', '1900');
    await order('close', 'buy', '0.2', true);
    expect(sent('close')?.reduceOnly).toBe(true);
    expect(fake.book.positions.get('ETHUSDT')?.size.toFixed()).toBe('0.3');
    expect(await adapter.position('ETHUSDT')).toMatchObject({ side: 'short', quantity: '0.3' });
    // 1000 − 500 − 0.5 + 200 + 20 − 0.19
    expect(fake.book.contractCash.toFixed()).toBe('719.31');
    // More than the short is refused reduce-only (110017), and nothing executes.
    expect(await rejection(order('over', 'buy', '0.4', true))).toMatchObject({ code: -2022 });
    expect(fake.book.executedWithLinkId('over')).toEqual([]);
    // A plain Buy of 0.5 closes the short of 0.3 and opens a long of 0.2 with the rest.
    await order('flip', 'buy', '0.5', false);
    expect(fake.book.positions.get('ETHUSDT')).toMatchObject({ side: 'Buy' });
    expect(await adapter.position('ETHUSDT')).toMatchObject({
      side: 'long',
      quantity: '0.2',
      entryPrice: '1900',
    });
  });

  it('reads market rules from instruments-info', async () => {
    fake = await FakeBybitServer.start();
    const adapter = adapterFor(fake);
    expect(await adapter.marketRules('BTCUSDT', 'future')).toMatchObject({
      tickSize: '0.1',
      stepSize: '0.001',
      minNotional: '100',
      market: 'future',
    });
    expect(await adapter.marketRules('BTCUSDT', 'spot')).toMatchObject({
      tickSize: '0.01',
      stepSize: '0.00001',
      minNotional: '5',
    });
  });

  adapterErrorCases<BybitFault, FakeBybitServer>({
    start: async () => {
      fake = await FakeBybitServer.start();
      return fake;
    },
    adapterFor: (double) => adapterFor(double),
    adapterWithRetry: (double, retry, budget) =>
      new BybitExchange({
        apiKey: double.apiKey,
        secret: double.secret,
        baseUrl: double.url,
        enableRateLimit: false,
        retry,
        budget,
      }),
    timePath: '/v5/market/time',
    timestampCode: '10002',
    clockSkewMs: -60_000,
    balancePath: '/v5/account/wallet-balance',
    rateLimited: { kind: 'rateLimited', resetInMs: 1000 },
    rateLimitCode: '10006',
    // Until X-Bapi-Limit-Reset-Timestamp, 1 s after the answer here.
    rateLimitWaitMs: 1000,
    futuresFreeAtStart: '0',
    spotBalanceCode: '170131',
    marginCase: {
      title: 'maps 110007 (insufficient available balance) on futures to -2019',
      quantity: '0.01',
    },
  });
});
