import type { BinanceFeedOptions } from '../ccxt/binance-feed';
import type { CcxtFeedOptions } from '../ccxt/ccxt-feed';
import type { MarketFeed } from '../market-feed';
import { ReplayFeed, type ReplayFeedOptions } from './replay-feed';
import { SimFeed, type SimFeedOptions } from './sim-feed';

export type MarketFeedKind = 'sim' | 'replay' | 'binance' | 'bybit' | 'okx';

export type CreateMarketFeedOptions =
  | ({ kind: 'sim' } & SimFeedOptions)
  | ({ kind: 'replay' } & ReplayFeedOptions)
  | ({ kind: 'binance' } & BinanceFeedOptions)
  | ({ kind: 'bybit' | 'okx' } & CcxtFeedOptions);

/**
 * The feed the server picked from `MARKET_FEED` (sim | replay | binance | bybit | okx). The package reads no env:
 * the server passes `MARKET_REPLAY_DIR` as `dir`, `MARKET_SPEED` as `speed`, `BINANCE_SANDBOX` as `sandbox`.
 * Call `start()` on the result. ccxt is loaded only for an exchange's feed (it takes about 1.5 s).
 */
export async function createMarketFeed(options: CreateMarketFeedOptions): Promise<MarketFeed> {
  switch (options.kind) {
    case 'sim':
      return new SimFeed(options);
    case 'replay':
      return new ReplayFeed(options);
    case 'binance': {
      const { BinanceFeed } = await import('../ccxt/binance-feed');
      return new BinanceFeed(options);
    }
    case 'bybit':
    case 'okx': {
      const { venueFeed } = await import('../ccxt/venue-feeds');
      return venueFeed(options.kind, options);
    }
  }
}
