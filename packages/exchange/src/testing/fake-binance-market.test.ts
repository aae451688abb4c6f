import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from './exchange-contract';
import { followPrices, type PriceFollower } from './fake-binance-market';
import { FakeBinanceServer } from './fake-binance-server';

let fake: FakeBinanceServer | undefined;
let follower: PriceFollower | undefined;
afterEach(async () => {
  await follower?.stop();
  await fake?.close();
});

const ticker = async (path: string) =>
  ((await (await fetch(`${fake!.url}${path}`)).json()) as { price: string }).price;

describe('the Binance double following the market the app trades on', () => {
  it('answers the source price on the tick and fills market orders there', async () => {
    fake = await FakeBinanceServer.start();
    const prices: Record<string, string> = { 'spot:ETHUSDT': '1892.657', 'future:ETHUSDT': '1890.1' };
    follower = followPrices(
      fake,
      [
        { symbol: 'ETHUSDT', market: 'spot' },
        { symbol: 'ETHUSDT', market: 'future' },
      ],
      async ({ symbol, market }) => prices[`${market}:${symbol}`]!,
      5,
    );
    await follower.ready;
    // ETHUSDT spot's tick is 0.01: 1892.657 is quoted as 1892.65 (PRICE_FILTER).
    expect(Number(await ticker('/api/v3/ticker/price?symbol=ETHUSDT'))).toBe(1892.65);
    expect(Number(await ticker('/fapi/v1/ticker/price?symbol=ETHUSDT'))).toBe(1890.1);

    prices['spot:ETHUSDT'] = '2000';
    await eventually(async () =>
      expect(Number(await ticker('/api/v3/ticker/price?symbol=ETHUSDT'))).toBe(2000),
    );
    const order = fake.book.newOrder('spot', {
      symbol: 'ETHUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.01',
    });
    expect(order.status).toBe('FILLED');
    expect(order.cumQuote.toFixed()).toBe('20');
  });

  it('is not ready while the source has no price, and stops moving the double once stopped', async () => {
    fake = await FakeBinanceServer.start();
    let price: string | undefined;
    let reads = 0;
    follower = followPrices(
      fake,
      [{ symbol: 'XRPUSDT', market: 'spot' }],
      async () => {
        reads += 1;
        if (price === undefined) throw new Error('no price yet');
        return price;
      },
      5,
    );
    let ready = false;
    void follower.ready.then(() => {
      ready = true;
    });
    // Several reads of the source have found no price.
    await eventually(async () => expect(reads).toBeGreaterThanOrEqual(3));
    expect(ready).toBe(false);
    price = '0.5123';
    await follower.ready;
    await follower.stop();
    const readsAtStop = reads;
    price = '0.9';
    // Proving that nothing moves takes time: six periods of the loop, each of which would read the source.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(reads).toBe(readsAtStop);
    expect(fake.book.price('XRPUSDT', 'spot').toFixed()).toBe('0.5123');
  });
});
