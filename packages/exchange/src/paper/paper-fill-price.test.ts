/**
 * The paper exchange fills a market order at the feed's price rounded to the tick against the taker,
 * with the rounding the backtest uses (docs/trading-rules.md §2.5: one fill-price implementation). Feeds publish
 * prices on the tick already; a replay of older data, whose prices may be finer than today's tick,
 * is what reaches this rounding, as the feed below does.
 */
import { fillPriceAgainst } from '@gridbot/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualFeed } from '../testing/manual-feed';
import { MemoryPaperStore } from './memory-paper-store';
import { PaperExchange } from './paper-exchange';

/** A feed whose quoted price is exactly what the test sets, off the tick included. */
class OffTickFeed extends ManualFeed {
  quote = '0';
  override price(): Promise<string> {
    return Promise.resolve(this.quote);
  }
}

let paper: PaperExchange | undefined;
afterEach(async () => {
  await paper?.stop();
});

describe('paper market fill price', () => {
  it('rounds a buy up and a sell down to the tick (BTCUSDT spot tick 0.01)', async () => {
    const feed = new OffTickFeed();
    paper = new PaperExchange({ store: new MemoryPaperStore(), feed });
    await paper.start();
    const ex = paper.forUser('user-1');
    feed.setPrice('BTCUSDT', 'spot', '50000');
    feed.quote = '50000.004';
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
    feed.quote = '50000.016';
    const sell = await ex.placeOrder({
      market: 'spot',
      symbol: 'BTCUSDT',
      side: 'sell',
      type: 'market',
      clientOrderId: 's-1',
      // What the buy left after its fee, taken from the BTC bought.
      quantity: '0.00999',
    });
    expect(sell.averagePrice).toBe('50000.01');
  });

  it('fills an engine event at its level rounded against the bot, not at the tick past it it was seen on', async () => {
    const feed = new OffTickFeed();
    paper = new PaperExchange({ store: new MemoryPaperStore(), feed });
    await paper.start();
    const ex = paper.forUser('user-1');
    feed.setPrice('ETHUSDT', 'spot', '3295.45');
    feed.quote = '3295.45';
    // The buy level 3295.4537 was crossed on the tick 3295.45; the order pays the level rounded up.
    const buy = await ex.placeOrder({
      market: 'spot',
      symbol: 'ETHUSDT',
      side: 'buy',
      type: 'market',
      clientOrderId: 'b-2',
      quantity: '0.1',
      eventPrice: '3295.4537',
    });
    expect(buy.averagePrice).toBe('3295.46');
    // A take-profit level of 3454.638 crossed on 3454.64 sells at 3454.63.
    feed.quote = '3454.64';
    const sell = await ex.placeOrder({
      market: 'spot',
      symbol: 'ETHUSDT',
      side: 'sell',
      type: 'market',
      clientOrderId: 's-2',
      quantity: '0.0999',
      eventPrice: '3454.638',
    });
    expect(sell.averagePrice).toBe('3454.63');
  });
});
