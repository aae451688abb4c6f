/** The market data API's paths, written once for the server's routes and the web's calls (docs/architecture.md §4). */
export const marketApiPaths = {
  /** Public: the ticker tape runs on the login page too. */
  tickers: '/api/tickers',
  symbolPairs: '/api/symbolpair',
  spotPrice: '/api/liveprice',
  futurePrice: '/api/futureliveprice',
  candles: '/api/candles',
  candleCoverage: '/api/candles/coverage',
} as const;

/** The live-price path of a market: Spot or Future. */
export function livePricePath(market: 'spot' | 'future'): string {
  return market === 'future' ? marketApiPaths.futurePrice : marketApiPaths.spotPrice;
}
