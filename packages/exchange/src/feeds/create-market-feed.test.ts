import { describe, expect, it } from 'vitest';
import { unifiedSymbol } from '../ccxt/binance-feed';
import { FakeClock } from '../testing/fake-clock';
import { createMarketFeed } from './create-market-feed';

describe('createMarketFeed', () => {
  it('builds the feed MARKET_FEED names', async () => {
    expect((await createMarketFeed({ kind: 'sim', clock: new FakeClock() })).kind).toBe('sim');
    expect((await createMarketFeed({ kind: 'replay', dir: '.' })).kind).toBe('replay');
    const binance = await createMarketFeed({ kind: 'binance', sandbox: true });
    expect(binance.kind).toBe('binance');
    expect(binance.symbols()).toHaveLength(22);
    expect(binance.lastPrice('BTCUSDT', 'spot')).toBeUndefined();
    await binance.stop();
  });

  it('names Binance markets the ccxt way', () => {
    expect(unifiedSymbol('BTCUSDT', 'spot')).toBe('BTC/USDT');
    expect(unifiedSymbol('ETHUSDT', 'future')).toBe('ETH/USDT:USDT');
  });
});
