/**
 * Parameters of the simulated market per pair: a starting price of the right order of magnitude,
 * annualised volatility and correlation with BTC, close to what these coins showed in 2024–2025
 * (BTC ~50 %/yr, large alts 60–90 %, small caps and memes above; alts move with BTC, ρ 0.6–0.85).
 */
export interface SimPairParams {
  startPrice: number;
  /** Annualised volatility as a fraction (0.5 = 50 %/yr). */
  annualVol: number;
  /** Correlation of the pair's returns with BTC's. */
  btcCorrelation: number;
}

export const SIM_PAIR_PARAMS: Readonly<Record<string, SimPairParams>> = {
  BTCUSDT: { startPrice: 95_000, annualVol: 0.5, btcCorrelation: 1 },
  ETHUSDT: { startPrice: 3_300, annualVol: 0.65, btcCorrelation: 0.85 },
  BNBUSDT: { startPrice: 650, annualVol: 0.5, btcCorrelation: 0.7 },
  SOLUSDT: { startPrice: 180, annualVol: 0.85, btcCorrelation: 0.75 },
  XRPUSDT: { startPrice: 2.2, annualVol: 0.9, btcCorrelation: 0.65 },
  ADAUSDT: { startPrice: 0.7, annualVol: 0.85, btcCorrelation: 0.75 },
  DOGEUSDT: { startPrice: 0.2, annualVol: 1.0, btcCorrelation: 0.7 },
  TRXUSDT: { startPrice: 0.25, annualVol: 0.5, btcCorrelation: 0.5 },
  DOTUSDT: { startPrice: 4.5, annualVol: 0.85, btcCorrelation: 0.75 },
  LTCUSDT: { startPrice: 100, annualVol: 0.75, btcCorrelation: 0.75 },
  LINKUSDT: { startPrice: 15, annualVol: 0.85, btcCorrelation: 0.75 },
  AVAXUSDT: { startPrice: 25, annualVol: 0.9, btcCorrelation: 0.75 },
  ATOMUSDT: { startPrice: 5, annualVol: 0.8, btcCorrelation: 0.7 },
  BCHUSDT: { startPrice: 450, annualVol: 0.75, btcCorrelation: 0.75 },
  UNIUSDT: { startPrice: 8, annualVol: 0.95, btcCorrelation: 0.7 },
  ETCUSDT: { startPrice: 20, annualVol: 0.8, btcCorrelation: 0.75 },
  XLMUSDT: { startPrice: 0.3, annualVol: 0.85, btcCorrelation: 0.65 },
  FILUSDT: { startPrice: 3, annualVol: 0.95, btcCorrelation: 0.7 },
  NEARUSDT: { startPrice: 3, annualVol: 1.0, btcCorrelation: 0.7 },
  APTUSDT: { startPrice: 5, annualVol: 1.0, btcCorrelation: 0.7 },
  SUIUSDT: { startPrice: 3, annualVol: 1.1, btcCorrelation: 0.65 },
  POLUSDT: { startPrice: 0.25, annualVol: 0.95, btcCorrelation: 0.7 },
};

/** Fallback for a symbol outside the table. */
export const DEFAULT_SIM_PARAMS: SimPairParams = { startPrice: 10, annualVol: 0.8, btcCorrelation: 0.7 };

/** Degrees of freedom of the Student-t shocks (fat tails). */
export const SIM_TAIL_DOF = 4;
