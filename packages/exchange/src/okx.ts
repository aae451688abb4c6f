// OKX through ccxt. Its own entry point, as Binance's and Bybit's: ccxt takes about 1.5 s to load, so
// processes on the paper exchange never load it.
export { OKX_HEDGE_MODE_MESSAGE } from './ccxt/okx-errors';
export { OkxExchange, type OkxExchangeOptions } from './ccxt/okx-exchange';
export { clientOrderIdOfClOrdId } from './ccxt/okx-normalize';
// Public candles and funding rates for backtests when the deployment follows this exchange's market.
export { VenueKlines } from './ccxt/venue-feeds';
