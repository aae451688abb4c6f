import type { MarketKind } from '@gridbot/shared';
import { type CandleInterval, INTERVAL_MS } from '../market-feed';
import type { NumCandle } from './candle-book';
import { deriveSeed, Random } from './random';
import { DEFAULT_SIM_PARAMS, SIM_PAIR_PARAMS, SIM_TAIL_DOF, type SimPairParams } from './sim-params';

const SECONDS_PER_YEAR = 365 * 86_400;
/** Volatility regime: log-multiplier mean-reverting over an hour, so calm and wild spells alternate. */
const REGIME_TAU_SEC = 3_600;
const REGIME_SD = 0.35;
/** Futures basis over spot: mean-reverting around +3 bp within ~10 minutes. */
const BASIS_MEAN = 0.0003;
const BASIS_SD = 0.0004;
const BASIS_TAU_SEC = 600;

interface PairState {
  params: SimPairParams;
  logPrice: number;
  basis: number;
  rng: Random;
  usdPerSec: number;
}

/**
 * The simulated market's price process (no timers): per pair a log-price random walk whose shocks are
 * Student-t (fat tails), shared with BTC's shock by each pair's correlation, scaled by a common
 * volatility regime. Futures = spot × (1 + basis).
 */
export class SimModel {
  private readonly pairs = new Map<string, PairState>();
  private readonly marketRng: Random;
  private regime = 0;

  constructor(
    private readonly seed: number,
    symbols: readonly string[],
    startPrices: Readonly<Record<string, number>> = {},
  ) {
    this.marketRng = new Random(deriveSeed(seed, 'market'));
    for (const symbol of symbols) {
      const params = SIM_PAIR_PARAMS[symbol] ?? DEFAULT_SIM_PARAMS;
      const start = startPrices[symbol] ?? params.startPrice;
      this.pairs.set(symbol, {
        params,
        logPrice: Math.log(start),
        basis: BASIS_MEAN,
        rng: new Random(deriveSeed(seed, symbol)),
        usdPerSec: symbol === 'BTCUSDT' ? 200_000 : symbol === 'ETHUSDT' ? 100_000 : 10_000,
      });
    }
  }

  has(symbol: string): boolean {
    return this.pairs.has(symbol);
  }

  /** Advances every pair by `dtSec` seconds. */
  step(dtSec: number): void {
    const decay = Math.exp(-dtSec / REGIME_TAU_SEC);
    this.regime = this.regime * decay + REGIME_SD * Math.sqrt(1 - decay * decay) * this.marketRng.normal();
    const volMultiplier = Math.exp(this.regime - (REGIME_SD * REGIME_SD) / 2);
    const common = this.marketRng.studentT(SIM_TAIL_DOF);
    const basisDecay = Math.exp(-dtSec / BASIS_TAU_SEC);
    for (const pair of this.pairs.values()) {
      const rho = pair.params.btcCorrelation;
      const own = pair.rng.studentT(SIM_TAIL_DOF);
      const shock = rho * common + Math.sqrt(Math.max(0, 1 - rho * rho)) * own;
      const sigma = pair.params.annualVol * Math.sqrt(dtSec / SECONDS_PER_YEAR) * volMultiplier;
      pair.logPrice += sigma * shock - (sigma * sigma) / 2;
      pair.basis =
        BASIS_MEAN +
        (pair.basis - BASIS_MEAN) * basisDecay +
        BASIS_SD * Math.sqrt(1 - basisDecay * basisDecay) * pair.rng.normal();
    }
  }

  price(symbol: string, market: MarketKind): number {
    const pair = this.pair(symbol);
    const spot = Math.exp(pair.logPrice);
    return market === 'spot' ? spot : spot * (1 + pair.basis);
  }

  /** Base volume traded in `dtSec` (lognormal around the pair's usual USDT turnover). */
  volume(symbol: string, dtSec: number): number {
    const pair = this.pair(symbol);
    return ((pair.usdPerSec * dtSec) / Math.exp(pair.logPrice)) * Math.exp(0.5 * pair.rng.normal() - 0.125);
  }

  /**
   * `count` generated candles of `interval` ending just before `beforeMs`, whose last close is
   * `anchorPrice`: a backward walk with the pair's volatility, the same for a given seed, pair and interval.
   */
  history(
    symbol: string,
    market: MarketKind,
    interval: CandleInterval,
    beforeMs: number,
    count: number,
    anchorPrice: number,
  ): NumCandle[] {
    const pair = this.pair(symbol);
    const rng = new Random(deriveSeed(this.seed, `${symbol}:${interval}`));
    const intervalSec = INTERVAL_MS[interval] / 1000;
    const sigma = pair.params.annualVol * Math.sqrt(intervalSec / SECONDS_PER_YEAR);
    const basisFactor = market === 'spot' ? 1 : 1 + BASIS_MEAN;
    const spotAnchor = anchorPrice / basisFactor;
    const candles: NumCandle[] = [];
    let close = spotAnchor;
    for (let i = 1; i <= count; i += 1) {
      const open = close / Math.exp(sigma * rng.studentT(SIM_TAIL_DOF));
      const wickUp = Math.exp(Math.abs(rng.normal()) * sigma * 0.5);
      const wickDown = Math.exp(-Math.abs(rng.normal()) * sigma * 0.5);
      const volume = ((pair.usdPerSec * intervalSec) / close) * Math.exp(0.5 * rng.normal() - 0.125);
      candles.push({
        openTimeMs: beforeMs - i * INTERVAL_MS[interval],
        open: open * basisFactor,
        high: Math.max(open, close) * wickUp * basisFactor,
        low: Math.min(open, close) * wickDown * basisFactor,
        close: close * basisFactor,
        volume,
      });
      close = open;
    }
    return candles.reverse();
  }

  private pair(symbol: string): PairState {
    const pair = this.pairs.get(symbol);
    if (!pair) throw new Error(`Simulated market has no ${symbol}`);
    return pair;
  }
}
