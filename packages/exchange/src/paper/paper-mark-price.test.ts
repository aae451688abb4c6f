/**
 * Paper futures liquidate on the mark price, as Binance does (docs/trading-rules.md §2.2: "Binance liquidates on
 * the mark price, not the last trade"), when the feed publishes one; a feed without it (the simulated market)
 * stands its last price in for it.
 */
import { describe, expect, it } from 'vitest';
import { ManualFeed } from '../testing/manual-feed';
import { MemoryPaperStore } from './memory-paper-store';
import { PaperExchange } from './paper-exchange';

async function longAt10x() {
  const feed = new ManualFeed({ 'future:BTCUSDT': '50000' });
  const paper = new PaperExchange({
    store: new MemoryPaperStore(),
    feed,
    startFunds: [{ wallet: 'future', asset: 'USDT', amount: '1000' }],
  });
  await paper.start();
  const ex = paper.forUser('u');
  await ex.setLeverage('BTCUSDT', 10);
  await ex.placeOrder({
    market: 'future',
    symbol: 'BTCUSDT',
    side: 'buy',
    type: 'market',
    clientOrderId: 'long',
    quantity: '0.01',
  });
  const liq = Number((await ex.position('BTCUSDT'))?.liquidationPrice);
  return { feed, paper, ex, liq };
}

// A tick is matched as it is published and its liquidation queued on the user's line, so the next call of
// that user (`position`) runs after it: no waiting needed.
describe('paper futures on the mark price', () => {
  it('liquidates when the mark reaches the liquidation price while the last price stays above it', async () => {
    const { feed, paper, ex, liq } = await longAt10x();
    feed.setPrice(
      'BTCUSDT',
      'future',
      String(Math.floor(liq + 100)),
      undefined,
      String(Math.floor(liq - 10)),
    );
    expect(await ex.position('BTCUSDT')).toBeUndefined();
    await paper.stop();
  });

  it('keeps the long while the mark stays above it, though the last price dips below', async () => {
    const { feed, paper, ex, liq } = await longAt10x();
    feed.setPrice(
      'BTCUSDT',
      'future',
      String(Math.floor(liq - 10)),
      undefined,
      String(Math.floor(liq + 100)),
    );
    expect(await ex.position('BTCUSDT')).toBeDefined();
    await paper.stop();
  });
});
