/**
 * When USDT-M perpetuals fund (docs/trading-rules.md §2.2): market facts that the engine (funding payments) and
 * the exchange package (funding rates of the replay and of paper futures) both need, so they live here, where
 * either may import them.
 */

/** Binance USDT-M perpetuals fund every 8 hours, on the UTC hours 0, 8 and 16. */
export const FUNDING_INTERVAL_MS = 8 * 3_600_000;
/** Binance publishes each funding time a few ms after the hour: a record this close after one belongs to it. */
export const FUNDING_JITTER_MS = 1_000;
