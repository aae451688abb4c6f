import { money } from '@gridbot/shared';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestBudget } from '../budget/request-budget';
import { exchangeContract, rejection } from '../testing/exchange-contract';
import { FakeBinanceServer } from '../testing/fake-binance-server';
import { virtualBudget } from '../testing/virtual-budget';
import { BinanceExchange } from './binance-exchange';

const noDelay = { sleep: async () => {}, random: () => 0.5 };

function adapterFor(
  fake: FakeBinanceServer,
  overrides: { apiKey?: string; secret?: string; budget?: RequestBudget; positionModeTtlMs?: number } = {},
) {
  return new BinanceExchange({
    apiKey: overrides.apiKey ?? fake.apiKey,
    secret: overrides.secret ?? fake.secret,
    baseUrl: fake.url,
    enableRateLimit: false,
    retry: noDelay,
    budget: overrides.budget ?? virtualBudget().budget,
    ...(overrides.positionModeTtlMs === undefined ? {} : { positionModeTtlMs: overrides.positionModeTtlMs }),
  });
}

exchangeContract('Binance adapter on the loopback fake server', async () => {
  const fake = await FakeBinanceServer.start();
  return {
    exchange: adapterFor(fake),
    setPrice: async (symbol, market, price) => fake.setPrice(symbol, market, price),
    close: () => fake.close(),
  };
});

describe('Binance adapter requests and error mapping', () => {
  let fake: FakeBinanceServer;
  afterEach(async () => {
    await fake.close();
  });

  it('signs private requests with the key and sends the rounded order with our client order id', async () => {
    fake = await FakeBinanceServer.start();
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
    const post = fake.requests.find((r) => r.method === 'POST' && r.path === '/api/v3/order');
    expect(post?.apiKey).toBe(fake.apiKey);
    expect(post?.params).toMatchObject({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.00123',
      price: '40000',
      timeInForce: 'GTC',
      newClientOrderId: 'bot1-7',
    });
    expect(post?.params.signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('maps -2015 (bad key, IP or permissions) to a fatal error without retrying', async () => {
    fake = await FakeBinanceServer.start();
    const error = await rejection(adapterFor(fake, { apiKey: 'wrong-key' }).balances('spot'));
    expect(error).toMatchObject({
      kind: 'fatal',
      code: -2015,
      userMessage: 'Invalid API-key, IP, or permissions for action.',
    });
    expect(fake.requests.filter((r) => r.path === '/api/v3/account')).toHaveLength(1);
  });

  it('refuses a request signed with the wrong secret (-1022)', async () => {
    fake = await FakeBinanceServer.start();
    const error = await rejection(adapterFor(fake, { secret: 'not-the-secret' }).balances('spot'));
    expect(error).toMatchObject({ kind: 'fatal', code: -1022 });
  });

  it('maps -2010 insufficient balance from Binance to a rejected order', async () => {
    fake = await FakeBinanceServer.start();
    fake.setPrice('ETHUSDT', 'spot', '2000');
    fake.failNext('POST /api/v3/order', 400, {
      code: -2010,
      msg: 'Account has insufficient balance for requested action.',
    });
    const error = await rejection(
      adapterFor(fake).placeOrder({
        market: 'spot',
        symbol: 'ETHUSDT',
        side: 'buy',
        type: 'market',
        clientOrderId: 'x1',
        quantity: '0.01',
      }),
    );
    expect(error).toMatchObject({
      kind: 'rejected',
      code: -2010,
      userMessage: 'Account has insufficient balance for requested action.',
    });
  });

  it('sends the order once when Binance refuses it for lack of balance', async () => {
    fake = await FakeBinanceServer.start();
    fake.setPrice('ETHUSDT', 'spot', '2000');
    fake.failNext('POST /api/v3/order', 400, {
      code: -2010,
      msg: 'Account has insufficient balance for requested action.',
    });
    await rejection(
      adapterFor(fake).placeOrder({
        market: 'spot',
        symbol: 'ETHUSDT',
        side: 'buy',
        type: 'market',
        clientOrderId: 'x2',
        quantity: '0.01',
      }),
    );
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/api/v3/order')).toHaveLength(1);
  });

  it('maps -2019 margin insufficient on futures', async () => {
    fake = await FakeBinanceServer.start();
    fake.setPrice('BTCUSDT', 'future', '50000');
    const error = await rejection(
      adapterFor(fake).placeOrder({
        market: 'future',
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'market',
        clientOrderId: 'f1',
        quantity: '0.01',
      }),
    );
    expect(error).toMatchObject({ kind: 'rejected', code: -2019, userMessage: 'Margin is insufficient.' });
  });

  it("an account's bots opening futures positions at once share one position-mode look-up (weight 30)", async () => {
    fake = await FakeBinanceServer.start();
    fake.setPrice('ETHUSDT', 'future', '2000');
    fake.setPrice('BTCUSDT', 'future', '50000');
    const adapter = adapterFor(fake);
    await Promise.all([adapter.setLeverage('ETHUSDT', 2), adapter.setLeverage('BTCUSDT', 3)]);
    const modeReads = () => fake.requests.filter((r) => r.path === '/fapi/v1/positionSide/dual').length;
    expect(modeReads()).toBe(1);
    // An opening soon after takes the answer as it is: a switch to hedge mode meanwhile is caught by the order
    // itself (-4061, "a hedge-mode order refused" in binance-faults.test.ts).
    await adapter.setLeverage('ETHUSDT', 2);
    expect(modeReads()).toBe(1);
    // Once the answer is older than its time, an opening asks again.
    const shortLived = adapterFor(fake, { positionModeTtlMs: 20 });
    await shortLived.setLeverage('ETHUSDT', 2);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await shortLived.setLeverage('ETHUSDT', 2);
    expect(modeReads()).toBe(3);
  });

  it('sends a futures order reduce-only as the order says: an opening sell opens a short, a reduce-only buy closes it', async () => {
    // USDⓈ-M one-way mode, isolated at 2×, 1000 USDT in the futures wallet; ETHUSDT at 2000.
    fake = await FakeBinanceServer.start();
    fake.setPrice('ETHUSDT', 'future', '2000');
    fake.book.futuresWallet = money('1000');
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
    const sent = (id: string) =>
      fake.orderPosts('future').find((r) => r.params.newClientOrderId === id)?.params;

    // Sell 0.5 not reduce-only: sent without reduceOnly, it opens a short of 0.5 at 2000 (margin 1000 / 2 = 500,
    // taker fee 0.05 % of 1000 = 0.5).
    const opened = await order('open', 'sell', '0.5', false);
    expect(sent('open')?.reduceOnly).toBeUndefined();
    expect(opened).toMatchObject({ status: 'FILLED', fee: '0.5' });
    expect(await adapter.position('ETHUSDT')).toMatchObject({
      side: 'short',
      quantity: '0.5',
      entryPrice: '2000',
      isolatedMargin: '500',
    });
    // A sell that does not say is a long-only bot's exit: reduce-only, refused with no long to reduce.
    expect(await rejection(order('exit', 'sell', '0.1'))).toMatchObject({ code: -2022 });
    expect(sent('exit')?.reduceOnly).toBe('true');

    // At 1900 a reduce-only buy of 0.2 closes part of the short: realized (2000 − 1900) × 0.2 = 20, margin
    // 200 released, fee 0.2 × 1900 × 0.05 % = 0.19; 0.3 stays short.
    fake.setPrice('ETHUSDT', 'future', '1900');
    await order('close', 'buy', '0.2', true);
    expect(sent('close')?.reduceOnly).toBe('true');
    expect(fake.book.futuresTrades('ETHUSDT').map((t) => [t.side, t.realizedPnl.toFixed()])).toEqual([
      ['SELL', '0'],
      ['BUY', '20'],
    ]);
    expect(await adapter.position('ETHUSDT')).toMatchObject({ side: 'short', quantity: '0.3' });
    // 1000 − 500 − 0.5 + 200 + 20 − 0.19
    expect(fake.book.futuresWallet.toFixed()).toBe('719.31');
    // More than the short is refused reduce-only (-2022), and nothing executes.
    expect(await rejection(order('over', 'buy', '0.4', true))).toMatchObject({ code: -2022 });
    expect(fake.book.executedWithId('over')).toEqual([]);
  });

  it('answers a repeated send with the original order after a look-up that got no answer', async () => {
    fake = await FakeBinanceServer.start();
    fake.setPrice('BTCUSDT', 'spot', '50000');
    const adapter = adapterFor(fake);
    const input = {
      market: 'spot',
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'market',
      clientOrderId: 'dup-1',
      quantity: '0.001',
    } as const;
    const first = await adapter.placeOrder(input);
    fake.failNext('GET /api/v3/order', 503, {
      code: -1001,
      msg: 'Internal error; unable to process your request. Please try again.',
    });
    const again = await adapter.placeOrder(input);
    expect(again.exchangeOrderId).toBe(first.exchangeOrderId);
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/api/v3/order')).toHaveLength(1);
  });

  it('reports "no answer" from fetchOrder as retryable, never as not found', async () => {
    fake = await FakeBinanceServer.start();
    fake.failNext(
      'GET /api/v3/order',
      503,
      { code: -1001, msg: 'Internal error; unable to process your request. Please try again.' },
      10,
    );
    const error = await rejection(adapterFor(fake).fetchOrder('spot', 'BTCUSDT', 'any'));
    expect(error.kind).toBe('retryable');
  });

  it('re-syncs the clock and retries after -1021', async () => {
    fake = await FakeBinanceServer.start();
    fake.clockSkewMs = -60_000;
    const balances = await adapterFor(fake).balances('spot');
    expect(balances.find((b) => b.asset === 'USDT')?.free).toBe('10000');
    expect(fake.requests.some((r) => r.path === '/api/v3/time')).toBe(true);
  });

  it('gives up with a retryable -1021 when the clock cannot be fixed', async () => {
    fake = await FakeBinanceServer.start();
    fake.failNext(
      '/api/v3/account',
      400,
      { code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' },
      10,
    );
    const error = await rejection(adapterFor(fake).balances('spot'));
    expect(error).toMatchObject({ kind: 'retryable', code: -1021 });
  });

  it.each([
    [429, { code: -1003, msg: 'Too many requests; current limit of IP is 6000 requests per minute.' }],
    [418, { code: -1003, msg: 'Way too many requests; IP banned until 1700000000000.' }],
  ])('backs off with jitter and retries after HTTP %i', async (status, body) => {
    fake = await FakeBinanceServer.start();
    const delays: number[] = [];
    fake.failNext('/fapi/v2/balance', status, body, 2);
    const adapter = new BinanceExchange({
      apiKey: fake.apiKey,
      secret: fake.secret,
      baseUrl: fake.url,
      enableRateLimit: false,
      retry: { baseDelayMs: 100, sleep: async (ms) => void delays.push(ms), random: () => 0.5 },
      budget: virtualBudget().budget,
    });
    const balances = await adapter.balances('future');
    expect(balances[0]).toEqual({ asset: 'USDT', free: '0', locked: '0' });
    expect(delays).toEqual([300, 600]);
  });

  it('surfaces a rate limit that does not clear as retryable', async () => {
    fake = await FakeBinanceServer.start();
    fake.failNext('/fapi/v2/balance', 429, { code: -1003, msg: 'Too many requests.' }, 10);
    const error = await rejection(adapterFor(fake).balances('future'));
    expect(error).toMatchObject({ kind: 'retryable', code: -1003 });
  });

  it('reads the positions of bots of one account asked at once in one request, and never hands a read already sent to one who asks later', async () => {
    // [futures] "Position Information V2 (USER_DATA)", GET /fapi/v2/positionRisk: weight 5 with or without
    // `symbol`; without it, every symbol's position. Three bots of one key on three pairs check their positions
    // after their orders.
    fake = await FakeBinanceServer.start();
    fake.book.futuresWallet = money('10000');
    for (const [symbol, price] of [
      ['ETHUSDT', '2000'],
      ['BTCUSDT', '50000'],
      ['BNBUSDT', '600'],
    ] as const)
      fake.setPrice(symbol, 'future', price);
    let release: () => void = () => undefined;
    let gate: Promise<void> | undefined;
    const budget: RequestBudget = { take: () => gate ?? Promise.resolve(), backOff: async () => undefined };
    const adapter = adapterFor(fake, { budget });
    await adapter.setLeverage('ETHUSDT', 2);
    await adapter.placeOrder({
      market: 'future',
      symbol: 'ETHUSDT',
      side: 'buy',
      type: 'market',
      clientOrderId: 'eth-long',
      quantity: '0.5',
    });
    // The set-up read the position once to confirm the margin type and leverage.
    const setUpReads = fake.requests.filter((r) => r.path === '/fapi/v2/positionRisk').length;
    const reads = () => fake.requests.filter((r) => r.path === '/fapi/v2/positionRisk').slice(setUpReads);

    const [eth, btc, bnb] = await Promise.all([
      adapter.position('ETHUSDT'),
      adapter.position('BTCUSDT'),
      adapter.position('BNBUSDT'),
    ]);
    expect(eth).toMatchObject({ side: 'long', quantity: '0.5', entryPrice: '2000' });
    expect([btc, bnb]).toEqual([undefined, undefined]);
    expect(reads()).toHaveLength(1);
    expect(reads()[0]?.params.symbol).toBeUndefined();

    // A read on its way (held here before it is sent): one who asks meanwhile gets a read sent after it asked.
    gate = new Promise((resolve) => {
      release = resolve;
    });
    const first = adapter.position('ETHUSDT');
    await new Promise((resolve) => setImmediate(resolve));
    const later = adapter.position('BTCUSDT');
    gate = undefined;
    release();
    await Promise.all([first, later]);
    expect(
      reads()
        .slice(1)
        .map((r) => r.params.symbol),
    ).toEqual(['ETHUSDT', 'BTCUSDT']);
  });

  it('reads market rules from ccxt’s loaded markets', async () => {
    fake = await FakeBinanceServer.start();
    const rules = await adapterFor(fake).marketRules('BTCUSDT', 'future');
    expect(rules).toMatchObject({ tickSize: '0.1', stepSize: '0.001', minNotional: '100', market: 'future' });
  });
});
