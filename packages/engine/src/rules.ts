import {
  DEFAULT_MAINT_MARGIN_RATE,
  fundingIntervalMs,
  type MarketKind,
  type MarketRules,
} from '@gridbot/shared';
import { decimalsOf } from './money';

/**
 * Market rules as the engine uses them on every tick: numbers, compiled once per bot from the shared
 * `MarketRules` (decimal strings). The strings are kept for the intents that cross to the exchange.
 */
export interface EngineRules {
  symbol: string;
  market: MarketKind;
  tickSize: string;
  stepSize: string;
  minNotional: string;
  stepDecimals: number;
  minNotionalNum: number;
  /** Maintenance margin rate as a fraction (docs/trading-rules.md §2.2, default 0.5 %); 0 on spot. */
  maintMarginRate: number;
  /**
   * The exchange alone books a liquidation (Binance: it liquidates on its mark price, docs/trading-rules.md
   * §2.2 and §3): the engine's liquidation price is then a display and never an exit. Unset on the paper
   * exchange and in backtests, where the engine books the liquidation at its level.
   */
  liquidationFromExchange?: boolean;
  /** Futures: ms between funding times (`fundingTimesBetween`); absent: Binance's 8 h. */
  fundingIntervalMs?: number;
}

/** Compiles shared `MarketRules` for `step()`. Futures without a known rate use the 0.5 % default. */
export function compileRules(rules: MarketRules): EngineRules {
  const maint =
    rules.market === 'future'
      ? rules.maintMarginRate > 0
        ? rules.maintMarginRate
        : DEFAULT_MAINT_MARGIN_RATE
      : 0;
  return {
    symbol: rules.symbol,
    market: rules.market,
    tickSize: rules.tickSize,
    stepSize: rules.stepSize,
    minNotional: rules.minNotional,
    stepDecimals: decimalsOf(rules.stepSize),
    minNotionalNum: Number(rules.minNotional),
    maintMarginRate: maint,
    ...(rules.market === 'future' ? { fundingIntervalMs: fundingIntervalMs(rules) } : {}),
  };
}
