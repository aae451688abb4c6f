/** Spot or USDT-M perpetual futures. */
export type MarketKind = 'spot' | 'future';

/** Trading rules of one symbol on one market (docs/trading-rules.md §2.1). Decimals are exact strings. */
export interface MarketRules {
  symbol: string;
  base: string;
  quote: 'USDT';
  market: MarketKind;
  /** Price increment. */
  tickSize: string;
  /** Quantity increment; buy quantity is rounded down to it. */
  stepSize: string;
  minQty: string;
  /** Smallest order value in USDT. */
  minNotional: string;
  /** Tier-1 maintenance margin rate as a fraction (futures); 0 on spot. */
  maintMarginRate: number;
  maxLeverage: number;
  /**
   * Futures: hours between funding times, counted from 00:00 UTC. Binance's `GET /fapi/v1/fundingInfo` lists
   * only the symbols whose interval (or rate cap) was adjusted, so absent means its default, 8.
   */
  fundingIntervalHours?: number;
  /**
   * Binance MAX_NUM_ORDERS: how many orders the account may hold open on the symbol (spot `maxNumOrders`,
   * futures `limit`). Absent where the venue does not say (the paper exchange).
   */
  maxNumOrders?: number;
  /**
   * The limit prices Binance accepts around the symbol's reference price: spot PERCENT_PRICE_BY_SIDE (against
   * the average price of `avgPriceMins`, the last price when 0), futures PERCENT_PRICE (against the mark
   * price: a buy at most `multiplierUp`, a sell at least `multiplierDown`). A buy needs
   * `bidDown ≤ price / ref ≤ bidUp`, a sell `askDown ≤ price / ref ≤ askUp`; an upper multiplier of 0 sets no
   * bound. Absent where the venue does not say.
   */
  percentPrice?: PercentPriceRule;
}

/** Multipliers of a percent-price filter (see `MarketRules.percentPrice`), exact decimal strings. */
export interface PercentPriceRule {
  bidUp: string;
  bidDown: string;
  askUp: string;
  askDown: string;
}

/** Fees of docs/trading-rules.md §2.1 in percent of quote (spot) or notional (futures), paid in USDT. */
export const DEFAULT_FEE_PCT: Readonly<Record<MarketKind, number>> = { spot: 0.1, future: 0.05 };

/**
 * Maker fee of a resting limit order that fills on the book, percent (docs/trading-rules.md §2.6): spot 0.1 %,
 * futures 0.02 %. A limit order that crosses the price when it arrives is a taker and pays `DEFAULT_FEE_PCT`.
 */
export const MAKER_FEE_PCT: Readonly<Record<MarketKind, number>> = { spot: 0.1, future: 0.02 };

/** Binance's funding interval of a USDT-M perpetual whose interval was not adjusted (docs/trading-rules.md §2.2). */
export const DEFAULT_FUNDING_INTERVAL_HOURS = 8;

/** A futures symbol's funding interval in ms (`fundingIntervalHours`, 8 h where the rules do not say). */
export function fundingIntervalMs(rules: Pick<MarketRules, 'fundingIntervalHours'> | undefined): number {
  return (rules?.fundingIntervalHours ?? DEFAULT_FUNDING_INTERVAL_HOURS) * 3_600_000;
}

/** Maintenance margin rate used where a symbol's own is unknown (docs/trading-rules.md §2.2). */
export const DEFAULT_MAINT_MARGIN_RATE = 0.005;
