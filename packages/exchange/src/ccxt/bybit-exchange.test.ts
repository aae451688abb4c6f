import { afterEach, describe, expect, it } from 'vitest';
import { exchangeContract, rejection } from '../testing/exchange-contract';
import { FakeBybitServer } from '../testing/fake-bybit-server';
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

  it('re-syncs the clock from /v5/market/time and retries after 10002', async () => {
    fake = await FakeBybitServer.start();
    fake.clockSkewMs = -60_000;
    const balances = await adapterFor(fake).balances('spot');
    expect(balances.find((b) => b.asset === 'USDT')?.free).toBe('10000');
    expect(fake.requests.some((r) => r.path === '/v5/market/time')).toBe(true);
  });

  it('backs off and retries a read answered 10006, and gives up with a retryable error if it lasts', async () => {
    fake = await FakeBybitServer.start();
    const delays: number[] = [];
    fake.inject('/v5/account/wallet-balance', { kind: 'rateLimited', resetInMs: 1000 }, 2);
    const adapter = new BybitExchange({
      apiKey: fake.apiKey,
      secret: fake.secret,
      baseUrl: fake.url,
      enableRateLimit: false,
      retry: { baseDelayMs: 100, sleep: async (ms) => void delays.push(ms), random: () => 0.5 },
    });
    expect((await adapter.balances('future'))[0]).toEqual({ asset: 'USDT', free: '0', locked: '0' });
    // A rate limit starts from 4 × the base, with equal jitter: 300 then 600 ms.
    expect(delays).toEqual([300, 600]);
    fake.inject('/v5/account/wallet-balance', { kind: 'rateLimited', resetInMs: 1000 }, 10);
    expect(await rejection(adapterFor(fake).balances('spot'))).toMatchObject({
      kind: 'retryable',
      code: -1003,
    });
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

  it('maps a spot refusal for lack of balance (170131) to -2010, sent once', async () => {
    fake = await FakeBybitServer.start();
    fake.setPrice('ETHUSDT', 'spot', '2000');
    const error = await rejection(
      adapterFor(fake).placeOrder({
        market: 'spot',
        symbol: 'ETHUSDT',
        side: 'sell',
        type: 'market',
        clientOrderId: 's-1',
        quantity: '0.01',
      }),
    );
    expect(error).toMatchObject({ kind: 'rejected', code: -2010 });
    expect(fake.orderPosts()).toHaveLength(1);
  });

  it('maps 110007 (insufficient available balance) on futures to -2019', async () => {
    fake = await FakeBybitServer.start();
    fake.setPrice('BTCUSDT', 'future', '50000');
    const error = await rejection(
      adapterFor(fake).placeOrder({
        market: 'future',
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'market',
        clientOrderId: 'f-1',
        quantity: '0.01',
      }),
    );
    expect(error).toMatchObject({ kind: 'rejected', code: -2019, userMessage: 'Margin is insufficient.' });
  });
});
