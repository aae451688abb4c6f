import { pro } from 'ccxt';
import { type CcxtFeedOptions, CcxtTickerFeed } from './ccxt-feed';

export { unifiedSymbol } from './ccxt-feed';

export interface BinanceFeedOptions extends CcxtFeedOptions {
  /** `BINANCE_SANDBOX=true`: testnet streams. */
  sandbox?: boolean;
}

/** Live Binance prices (`MARKET_FEED=binance`): spot and USDT-M tickers streamed, candles over REST. */
export class BinanceFeed extends CcxtTickerFeed<'binance'> {
  constructor(options: BinanceFeedOptions = {}) {
    const spot = new pro.binance({ options: { fetchMarkets: { types: ['spot'] }, fetchCurrencies: false } });
    const usdm = new pro.binanceusdm({
      options: { fetchMarkets: { types: ['linear'] }, fetchCurrencies: false },
    });
    if (options.sandbox) {
      spot.setSandboxMode(true);
      usdm.setSandboxMode(true);
    }
    super('binance', { spot, future: usdm }, options);
  }
}
