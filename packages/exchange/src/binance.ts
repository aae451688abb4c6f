// Binance through ccxt. Its own entry point because ccxt takes about 1.5 s to load: processes on the
// paper exchange and the simulated or replayed market never load it (see createMarketFeed, and the server's
// exchange gateway).
export { BINANCE_LIMITS, type BinanceLimits, binanceLimitsOf, HEADROOM } from './ccxt/binance-budget';
export { BinanceExchange, type BinanceExchangeOptions } from './ccxt/binance-exchange';
export { BinanceFeed } from './ccxt/binance-feed';
export { BinanceKlines } from './ccxt/binance-klines';
export { HEDGE_MODE_MESSAGE } from './ccxt/ccxt-errors';
export { type ApiKeyPermissions, keyPermissionsOf } from './ccxt/key-permissions';
