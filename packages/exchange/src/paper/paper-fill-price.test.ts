/**
 * The paper exchange fills a market order at the feed's price rounded to the tick against the taker,
 * with the rounding the backtest uses (DESIGN §2.5: one fill-price implementation).
 */
import { fillPriceAgainst } from '@gridbot/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualFeed } from '../testing/manual-feed';
import { MemoryPaperStore } from './memory-paper-store';
import { PaperExchange } from './paper-exchange';

let paper: PaperExchange | undefined;
afterEach(async () => {
  await paper?.stop();
});

describe('paper market fill price', () => {
  it('rounds a buy up and a sell down to the tick (BTCUSDT spot tick 0.01)', async () => {
    const feed = new ManualFeed();
    paper = new PaperExchange({ store: new MemoryPaperStore(), feed });
    await paper.start();
    const ex = paper.forUser('user-1');
    feed.setPrice('BTCUSDT', 'spot', '50000.004');
    const buy = await ex.placeOrder({
      market: 'spot',
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'market',
      clientOrderId: 'b-1',
      quantity: '0.01',
    });
    expect(buy.averagePrice).toBe(fillPriceAgainst('50000.004', 'buy', '0.01').toFixed());
    expect(buy.averagePrice).toBe('50000.01');
    feed.setPrice('BTCUSDT', 'spot', '50000.016');
    const sell = await ex.placeOrder({
      market: 'spot',
      symbol: 'BTCUSDT',
      side: 'sell',
      type: 'market',
      clientOrderId: 's-1',
      quantity: '0.01',
    });
    expect(sell.averagePrice).toBe('50000.01');
  });
});
