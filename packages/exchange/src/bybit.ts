// Bybit through ccxt. Its own entry point, as Binance's: ccxt takes about 1.5 s to load, so processes on the
// paper exchange never load it.
export { BYBIT_HEDGE_MODE_MESSAGE, BYBIT_UNIFIED_ACCOUNT_MESSAGE } from './ccxt/bybit-errors';
export { BybitExchange, type BybitExchangeOptions } from './ccxt/bybit-exchange';
// Public candles and funding rates for backtests when the deployment follows this exchange's market.
export { VenueKlines } from './ccxt/venue-feeds';
