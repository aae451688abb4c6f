import { DEFAULT_FEE_PCT, type MarketKind } from '../markets/market-rules.types';

/**
 * What blocks a start, told before the user fills the Start Bot form in (GET /api/startcheck). Each
 * blocker carries the page that removes it.
 */
export interface StartBlocker {
  code: 'keys' | 'futures_empty' | 'pair_taken' | 'profit_limit' | 'no_free_balance';
  message: string;
  /** The page that removes the blocker, with its link text. */
  link?: { to: string; label: string };
}

export interface StartReadiness {
  /** The exchange the bot would trade on: paper, or the bound key's. */
  venue: 'paper' | 'binance' | 'bybit' | 'okx';
  /** Free USDT of the wallet the bot would trade from (what running bots hold taken out); null without keys. */
  freeUsdt: string | null;
  blockers: StartBlocker[];
  /** The chosen strategy's take-profit warning (fees), when there is one. */
  feeWarning: string | null;
}

export const startReadinessMessages = {
  keys: 'Connect your exchange API keys in API Setting before starting a bot on Binance.',
  futuresEmpty: 'Your futures wallet has no free USDT. Transfer USDT from spot to futures first.',
  noFreeBalance: (wallet: string) =>
    `Your ${wallet} wallet has no free USDT: running bots hold all of it. Stop a bot or add funds first.`,
} as const;

/** Round-trip fee in percent of the quote: one buy and one sell (docs/trading-rules.md §2.1 fees). */
export function roundTripFeePct(market: MarketKind, feePct = DEFAULT_FEE_PCT[market]): number {
  return Number((feePct * 2).toFixed(6));
}

/**
 * A take-profit below the round-trip fee loses money on every trade (a sell that only just reaches its
 * take-profit pays more in fees than it gains). Returns the warning naming the grids and the fee, or null.
 * `tpPct` is one value per grid (Scalping: one value for all).
 */
export function takeProfitFeeWarning(tpPct: readonly number[], market: MarketKind): string | null {
  const fee = roundTripFeePct(market);
  const low = tpPct.flatMap((tp, i) => (Number.isFinite(tp) && tp < fee ? [i + 1] : []));
  if (low.length === 0) return null;
  const where = tpPct.length === 1 ? 'The take-profit' : `Take-profit of grid ${low.join(', ')}`;
  const label = market === 'future' ? 'futures' : 'spot';
  return `${where} is below the round-trip fee of ${fee}% on ${label} (${DEFAULT_FEE_PCT[market]}% per buy and per sell): such trades lose money.`;
}
