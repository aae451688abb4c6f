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
}

/** Fees of docs/trading-rules.md §2.1 in percent of quote (spot) or notional (futures), paid in USDT. */
export const DEFAULT_FEE_PCT: Readonly<Record<MarketKind, number>> = { spot: 0.1, future: 0.05 };

/** Maintenance margin rate used where a symbol's own is unknown (docs/trading-rules.md §2.2). */
export const DEFAULT_MAINT_MARGIN_RATE = 0.005;
