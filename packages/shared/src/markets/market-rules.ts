/**
 * Binance trading rules for the 22 pairs of docs/product.md §5, spot and USDT-M perpetual futures.
 * A table of facts as Binance publishes them (exchangeInfo filters PRICE_FILTER.tickSize,
 * LOT_SIZE.stepSize, (NOTIONAL|MIN_NOTIONAL).minNotional; futures leverageBracket tier 1
 * maintenance margin ratio). Decimal values are strings so no float ever rounds them.
 * `market-rules.test.ts` checks every row against fixtures/binance-markets.json.
 */
import type { MarketRules } from './market-rules.types';

type Row = readonly [base: string, tickSize: string, stepSize: string, minNotional: string];
type FuturesRow = readonly [...Row, maintMarginRate: number, maxLeverage: number];

const SPOT_ROWS: readonly Row[] = [
  ['BTC', '0.01', '0.00001', '5'],
  ['ETH', '0.01', '0.0001', '5'],
  ['BNB', '0.01', '0.001', '5'],
  ['SOL', '0.01', '0.001', '5'],
  ['XRP', '0.0001', '0.1', '5'],
  ['ADA', '0.0001', '0.1', '5'],
  ['DOGE', '0.00001', '1', '1'],
  ['TRX', '0.0001', '0.1', '5'],
  ['DOT', '0.001', '0.01', '5'],
  ['LTC', '0.01', '0.001', '5'],
  ['LINK', '0.001', '0.01', '5'],
  ['AVAX', '0.001', '0.01', '5'],
  ['ATOM', '0.001', '0.01', '5'],
  ['BCH', '0.1', '0.001', '5'],
  ['UNI', '0.001', '0.01', '5'],
  ['ETC', '0.01', '0.01', '5'],
  ['XLM', '0.0001', '1', '5'],
  ['FIL', '0.0001', '0.01', '5'],
  ['NEAR', '0.001', '0.1', '5'],
  ['APT', '0.001', '0.01', '5'],
  ['SUI', '0.0001', '0.1', '5'],
  ['POL', '0.00001', '0.1', '5'],
];

const FUTURES_ROWS: readonly FuturesRow[] = [
  ['BTC', '0.1', '0.001', '100', 0.004, 125],
  ['ETH', '0.01', '0.001', '20', 0.004, 125],
  ['BNB', '0.01', '0.01', '5', 0.005, 75],
  ['SOL', '0.01', '0.01', '5', 0.005, 100],
  ['XRP', '0.0001', '0.1', '5', 0.005, 75],
  ['ADA', '0.0001', '1', '5', 0.005, 75],
  ['DOGE', '0.00001', '1', '5', 0.005, 75],
  ['TRX', '0.00001', '1', '5', 0.0065, 75],
  ['DOT', '0.0001', '0.1', '5', 0.0065, 75],
  ['LTC', '0.01', '0.001', '5', 0.005, 75],
  ['LINK', '0.001', '0.01', '5', 0.005, 75],
  ['AVAX', '0.001', '1', '5', 0.005, 75],
  ['ATOM', '0.001', '0.01', '5', 0.006, 75],
  ['BCH', '0.01', '0.001', '5', 0.005, 75],
  ['UNI', '0.001', '1', '5', 0.006, 75],
  ['ETC', '0.001', '0.01', '5', 0.005, 75],
  ['XLM', '0.00001', '1', '5', 0.015, 50],
  ['FIL', '0.0001', '0.1', '5', 0.006, 75],
  ['NEAR', '0.001', '1', '5', 0.01, 75],
  ['APT', '0.0001', '0.1', '5', 0.01, 75],
  ['SUI', '0.0001', '0.1', '5', 0.01, 75],
  ['POL', '0.00001', '1', '5', 0.01, 75],
];

/** Base assets of the 22 USDT pairs, in ticker-tape order (docs/product.md §5). */
export const BASE_ASSETS = SPOT_ROWS.map(([base]) => base);

/** The 22 symbols, e.g. `BTCUSDT`. */
export const SYMBOLS: readonly string[] = BASE_ASSETS.map((base) => `${base}USDT`);

const spotRules = new Map<string, MarketRules>(
  SPOT_ROWS.map(([base, tickSize, stepSize, minNotional]) => [
    `${base}USDT`,
    {
      symbol: `${base}USDT`,
      base,
      quote: 'USDT',
      market: 'spot',
      tickSize,
      stepSize,
      minQty: stepSize,
      minNotional,
      maintMarginRate: 0,
      maxLeverage: 1,
    },
  ]),
);

const futuresRules = new Map<string, MarketRules>(
  FUTURES_ROWS.map(([base, tickSize, stepSize, minNotional, maintMarginRate, maxLeverage]) => [
    `${base}USDT`,
    {
      symbol: `${base}USDT`,
      base,
      quote: 'USDT',
      market: 'future',
      tickSize,
      stepSize,
      minQty: stepSize,
      minNotional,
      maintMarginRate,
      maxLeverage,
    },
  ]),
);

/** Rules of one symbol on one market, or undefined for a symbol we do not list. */
export function findMarketRules(symbol: string, market: MarketRules['market']): MarketRules | undefined {
  return (market === 'spot' ? spotRules : futuresRules).get(symbol.toUpperCase());
}

/** Rules of one symbol on one market; throws for an unknown symbol (a caller bug, not user input). */
export function getMarketRules(symbol: string, market: MarketRules['market']): MarketRules {
  const rules = findMarketRules(symbol, market);
  if (!rules) throw new Error(`Unknown ${market} symbol ${symbol}`);
  return rules;
}

/** Every listed market, spot first. */
export function allMarketRules(): MarketRules[] {
  return [...spotRules.values(), ...futuresRules.values()];
}
