import { money } from '@gridbot/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { adapterErrorCases } from '../testing/adapter-error-cases';
import { exchangeContract, rejection } from '../testing/exchange-contract';
import { FakeOkxServer, type OkxFault } from '../testing/fake-okx-server';
import { virtualBudget } from '../testing/virtual-budget';
import { OkxExchange } from './okx-exchange';
import { clientOrderIdOfClOrdId, clOrdIdOf, rulesFromOkxInstrument, totalsOfFills } from './okx-normalize';

const noDelay = { sleep: async () => {}, random: () => 0.5 };

function adapterFor(
  fake: FakeOkxServer,
  overrides: { apiKey?: string; secret?: string; passphrase?: string } = {},
) {
  return new OkxExchange({
    apiKey: overrides.apiKey ?? fake.apiKey,
    secret: overrides.secret ?? fake.secret,
    passphrase: overrides.passphrase ?? fake.passphrase,
    baseUrl: fake.url,
    enableRateLimit: false,
    budget: virtualBudget().budget,
    retry: noDelay,
    timeoutMs: 2_000,
  });
}

exchangeContract('OKX adapter on the loopback fake server', async () => {
  const fake = await FakeOkxServer.start();
  return {
    exchange: adapterFor(fake),
    setPrice: async (symbol, market, price) => fake.setPrice(symbol, market, price),
    close: () => fake.close(),
    sharedWallet: true,
  };
});

describe('OKX client order ids', () => {
  it('packs a runtime id into 32 letters and digits, and reads it back', () => {
    // The runtime's form: a bot id as 22 base64url characters, a dash, the sequence in base 36.
    const runtime = `${Buffer.from('0f1e2d3c4b5a69788796a5b4c3d2e1f0', 'hex').toString('base64url')}-zzzzzzzzz`;
    const id = clOrdIdOf(runtime);
    expect(id).toMatch(/^[A-Za-z0-9]{1,32}$/);
    expect(id).toHaveLength(32);
    expect(clOrdIdOf(runtime)).toBe(id);
    expect(clientOrderIdOfClOrdId(id)).toBe(runtime);
  });

  it('escapes other ids with dashes and underscores, and digests what cannot fit', () => {
    expect(clOrdIdOf('c-lim_1Z')).toBe('ecZ0limZ11Z2');
    expect(clientOrderIdOfClOrdId('ecZ0limZ11Z2')).toBe('c-lim_1Z');
    const long = `${'x'.repeat(40)}:7`;
    expect(clOrdIdOf(long)).toMatch(/^h[0-9a-f]{31}$/);
    expect(clOrdIdOf(long)).not.toBe(clOrdIdOf(`${'x'.repeat(40)}:8`));
    // An order made outside the platform keeps its own id.
    expect(clientOrderIdOfClOrdId('myOrder123')).toBe('myOrder123');
  });
});

describe('OKX fills and rules', () => {
  it('adds up an order’s fills in coins, the fee charged being the negated fee', () => {
    const rows = [
      { ordId: 'o1', fillSz: '0.4', fillPx: '50000', fee: '-0.1', feeCcy: 'USDT' },
      { ordId: 'o2', fillSz: '9', fillPx: '1', fee: '-5', feeCcy: 'USDT' },
      { ordId: 'o1', fillSz: '0.6', fillPx: '51000', fee: '-0.153', feeCcy: 'USDT' },
    ];
    // ctVal 0.01 BTC: 0.004 + 0.006 = 0.01 BTC for 200 + 306 = 506 USDT; fee 0.1 + 0.153.
    expect(totalsOfFills(rows, 'o1', '0.01', 'USDT')).toEqual({
      qty: '0.01',
      value: '506',
      fee: '0.253',
      feeAsset: 'USDT',
    });
  });

  it('charges a row without feeCcy in the given coin, and a rebate reads as a negative fee', () => {
    const rows = [{ ordId: 'o1', fillSz: '0.5', fillPx: '2000', fee: '0.0002' }];
    expect(totalsOfFills(rows, 'o1', '1', 'ETH')).toMatchObject({ fee: '-0.0002', feeAsset: 'ETH' });
  });

  it('reads a swap’s lot and minimum in contracts of ctVal coins', () => {
    const rules = rulesFromOkxInstrument(
      {
        instId: 'BTC-USDT-SWAP',
        instType: 'SWAP',
        tickSz: '0.1',
        lotSz: '0.01',
        minSz: '0.01',
        ctVal: '0.01',
        lever: '100',
      },
      'future',
    );
    expect(rules).toMatchObject({
      symbol: 'BTCUSDT',
      base: 'BTC',
      tickSize: '0.1',
      stepSize: '0.0001',
      minQty: '0.0001',
    });
    expect(rules.maxLeverage).toBeLessThanOrEqual(100);
  });
});

describe('OKX adapter requests and error mapping', () => {
  let fake: FakeOkxServer;
  afterEach(async () => {
    await fake.close();
  });

  it('signs with the OK-ACCESS headers and sends the rounded order with its clOrdId', async () => {
    fake = await FakeOkxServer.start();
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
    const post = fake.orderPosts()[0];
    expect(post?.apiKey).toBe(fake.apiKey);
    expect(post?.params).toEqual({
      instId: 'BTC-USDT',
      tdMode: 'cash',
      side: 'buy',
      ordType: 'limit',
      sz: '0.00123',
      px: '40000',
      clOrdId: 'ebot1Z07',
    });
  });

  it('sends a swap order in contracts: 0.01 BTC is 1 contract of 0.01 BTC, isolated, reduce-only to sell', async () => {
    fake = await FakeOkxServer.start();
    fake.setPrice('BTCUSDT', 'future', '50000');
    const adapter = adapterFor(fake);
    await adapter.setLeverage('BTCUSDT', 5);
    const open = await adapter.placeOrder({
      market: 'future',
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'market',
      clientOrderId: 'f-1',
      quantity: '0.01',
    });
    // 0.05 % of 0.01 × 50,000 = 0.25 USDT.
    expect(open).toMatchObject({
      quantity: '0.01',
      filledQuantity: '0.01',
      filledQuote: '500',
      fee: '0.25',
      feeAsset: 'USDT',
    });
    await adapter.placeOrder({
      market: 'future',
      symbol: 'BTCUSDT',
      side: 'sell',
      type: 'market',
      clientOrderId: 'f-2',
      quantity: '0.01',
    });
    expect(
      fake.orderPosts().map((r) => [r.params.sz, r.params.tdMode, r.params.posSide, r.params.reduceOnly]),
    ).toEqual([
      ['1', 'isolated', 'net', undefined],
      ['1', 'isolated', 'net', true],
    ]);
  });

  it('sends a swap order reduce-only as the order says: an opening sell opens a net short, a reduce-only buy closes it', async () => {
    // Net mode, isolated at 2×, 1000 USDT in the Trading account; ETH-USDT-SWAP (0.1 ETH a contract) at 2000,
    // fee 0.05 %.
    fake = await FakeOkxServer.start();
    fake.setPrice('ETHUSDT', 'future', '2000');
    fake.book.cash.set('USDT', money('1000'));
    const adapter = adapterFor(fake);
    await adapter.setLeverage('ETHUSDT', 2);
    const order = (
      clientOrderId: string,
      side: 'buy' | 'sell',
      quantity: string,
      reduceOnly?: boolean,
      price?: string,
    ) =>
      adapter.placeOrder({
        market: 'future',
        symbol: 'ETHUSDT',
        side,
        type: price ? 'limit' : 'market',
        clientOrderId,
        quantity,
        ...(price ? { price } : {}),
        ...(reduceOnly === undefined ? {} : { reduceOnly }),
      });
    const sent = (id: string) => fake.orderPosts().find((r) => r.params.clOrdId === clOrdIdOf(id))?.params;
    const pos = () => fake.book.positions.get('ETH-USDT-SWAP')?.pos.toFixed() ?? '0';

    // Sell 0.5 ETH (5 contracts) not reduce-only: it opens a short, pos −5 (margin 1000 / 2 = 500, fee 0.5).
    const opened = await order('open', 'sell', '0.5', false);
    expect(sent('open')).toMatchObject({ sz: '5', posSide: 'net' });
    expect(sent('open')?.reduceOnly).toBeUndefined();
    expect(opened).toMatchObject({ status: 'FILLED', fee: '0.5' });
    expect(pos()).toBe('-5');
    expect(await adapter.position('ETHUSDT')).toMatchObject({
      side: 'short',
      quantity: '0.5',
      entryPrice: '2000',
      isolatedMargin: '500',
    });
    // A sell that does not say is a long-only bot's exit: reduce-only, refused on a short (51170).
    expect(await rejection(order('exit', 'sell', '0.1'))).toMatchObject({ code: -2022 });
    expect(sent('exit')?.reduceOnly).toBe(true);

    // At 1900 a reduce-only buy of 0.2 closes part of the short: PnL (2000 − 1900) × 0.2 = 20, margin 200
    // released, fee 0.2 × 1900 × 0.05 % = 0.19; 3 contracts stay short.
    fake.setPrice('ETHUSDT', 'future', '1900');
    await order('close', 'buy', '0.2', true);
    expect(sent('close')?.reduceOnly).toBe(true);
    expect(pos()).toBe('-3');
    expect(await adapter.position('ETHUSDT')).toMatchObject({ side: 'short', quantity: '0.3' });
    // 1000 − 500 − 0.5 + 200 + 20 − 0.19
    expect(fake.book.cash.get('USDT')?.toFixed()).toBe('719.31');
    // More than the short is refused reduce-only (51148), and nothing executes.
    expect(await rejection(order('over', 'buy', '0.4', true))).toMatchObject({ code: -2022 });
    expect(fake.book.executedWithClOrdId(clOrdIdOf('over'))).toEqual([]);
    // A reduce-only buy of 0.2 rests at 1850; another of 0.2 at 1800 comes after it in price priority, and
    // the two would close 4 contracts of a short of 3: refused (51148).
    await order('rest', 'buy', '0.2', true, '1850');
    expect(await rejection(order('behind', 'buy', '0.2', true, '1800'))).toMatchObject({ code: -2022 });
    expect(fake.book.pending('SWAP', 'ETH-USDT-SWAP').map((o) => o.px.toFixed())).toEqual(['1850']);
    // At 1850 the resting one fills: 1 contract stays short.
    fake.setPrice('ETHUSDT', 'future', '1850');
    expect(pos()).toBe('-1');
  });

  it('buys at market for a base quantity (tgtCcy base_ccy): 0.01234 BTC, fee 0.1 % of the BTC', async () => {
    fake = await FakeOkxServer.start();
    fake.setPrice('BTCUSDT', 'spot', '50000');
    const order = await adapterFor(fake).placeOrder({
      market: 'spot',
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'market',
      clientOrderId: 'v-1',
      quantity: '0.01234',
    });
    expect(fake.orderPosts()[0]?.params).toMatchObject({ sz: '0.01234', tgtCcy: 'base_ccy' });
    expect(order).toMatchObject({
      quantity: '0.01234',
      filledQuote: '617',
      fee: '0.00001234',
      feeAsset: 'BTC',
    });
  });

  it('takes a fill without feeCcy as charged in the coin the trade credits', async () => {
    fake = await FakeOkxServer.start();
    fake.setPrice('ETHUSDT', 'spot', '2000');
    fake.book.fillsWithoutFeeCcy = true;
    const order = await adapterFor(fake).placeOrder({
      market: 'spot',
      symbol: 'ETHUSDT',
      side: 'buy',
      type: 'market',
      clientOrderId: 'nf-1',
      quantity: '0.5',
    });
    expect(order).toMatchObject({ fee: '0.0005', feeAsset: 'ETH' });
  });

  it.each([
    ['an unknown key (50111)', { apiKey: 'wrong' }, -2015],
    ['a wrong passphrase (50105)', { passphrase: 'wrong' }, -2015],
    ['a wrong secret (50113)', { secret: 'wrong' }, -1022],
  ])('maps %s to a fatal error without retrying', async (_, overrides, code) => {
    fake = await FakeOkxServer.start();
    const error = await rejection(adapterFor(fake, overrides).balances('spot'));
    expect(error).toMatchObject({ kind: 'fatal', code });
    expect(fake.requests.filter((r) => r.path === '/api/v5/account/balance')).toHaveLength(1);
  });

  it('reports "no answer" from fetchOrder as retryable, and 51603 as not found', async () => {
    fake = await FakeOkxServer.start();
    const adapter = adapterFor(fake);
    expect(await adapter.fetchOrder('spot', 'BTCUSDT', 'any')).toEqual({ found: false });
    fake.inject('GET /api/v5/trade/order', { kind: 'answer', status: 503, body: 'Service Unavailable' }, 10);
    expect((await rejection(adapter.fetchOrder('spot', 'BTCUSDT', 'any'))).kind).toBe('retryable');
  });

  it('reads the key’s rights from the account configuration: trade, withdraw, an IP bound', async () => {
    fake = await FakeOkxServer.start();
    const adapter = adapterFor(fake);
    expect(await adapter.keyPermissions()).toEqual({
      ipRestrict: false,
      enableReading: true,
      enableSpotAndMarginTrading: true,
      enableFutures: true,
      enableWithdrawals: false,
    });
    fake.book.perm = 'read_only';
    expect(await adapter.keyPermissions()).toMatchObject({
      enableSpotAndMarginTrading: false,
      enableFutures: false,
    });
    fake.book.perm = 'read_only,trade,withdraw';
    fake.book.ip = '203.0.113.7';
    expect(await adapter.keyPermissions()).toMatchObject({ enableWithdrawals: true, ipRestrict: true });
  });

  it('reads market rules from the instruments, a swap’s in coins', async () => {
    fake = await FakeOkxServer.start();
    const adapter = adapterFor(fake);
    expect(await adapter.marketRules('BTCUSDT', 'future')).toMatchObject({
      tickSize: '0.1',
      stepSize: '0.0001',
      minQty: '0.0001',
      market: 'future',
    });
    expect(await adapter.marketRules('BTCUSDT', 'spot')).toMatchObject({
      tickSize: '0.01',
      stepSize: '0.00001',
    });
  });

  adapterErrorCases<OkxFault, FakeOkxServer>({
    start: async () => {
      fake = await FakeOkxServer.start();
      return fake;
    },
    adapterFor: (double) => adapterFor(double),
    adapterWithRetry: (double, retry, budget) =>
      new OkxExchange({
        apiKey: double.apiKey,
        secret: double.secret,
        passphrase: double.passphrase,
        baseUrl: double.url,
        enableRateLimit: false,
        retry,
        budget,
      }),
    timePath: '/api/v5/public/time',
    timestampCode: '50102',
    clockSkewMs: 60_000,
    balancePath: '/api/v5/account/balance',
    rateLimited: { kind: 'rateLimited' },
    rateLimitCode: '50011',
    // OKX sends no reset time: the 2 s its limits are counted in.
    rateLimitWaitMs: 2000,
    // One Trading account: its USDT backs swaps too.
    futuresFreeAtStart: '10000',
    spotBalanceCode: '51008',
    // 3 BTC at 50,000 and 10× needs 15,000 USDT of margin; the account holds 10,000.
    marginCase: { title: 'maps a swap refusal for lack of margin (51008) to -2019', quantity: '3' },
  });
});
