/** A live cycle, `GET /api/livecycles` (docs/spec/02-bots-wallet-account.md §3 Cycle). Prices are numbers; stop_loss null when unset. */
export interface LiveCycle {
  id: string;
  pair: string;
  category: 'Spot' | 'Future';
  leverage: number;
  /**
   * Live while the runtime trades it; Pause when the runtime halted it (see haltReason); Stopping while its
   * stop and sell waits for the sale.
   */
  status: 'Live' | 'Pause' | 'Stopping';
  /** WaitBuy or Holding (docs/trading-rules.md §2.4). */
  phase: 'WaitBuy' | 'Holding';
  haltReason: string | null;
  liveprice: number;
  /** Days since start. */
  runtime: number;
  investment: number;
  /** Booked profit in USDT. */
  profit: number;
  cycles_completed: number;
  no_of_cycle: number;
  /** Price of the position held, null when nothing is held. */
  last_bought_price: number | null;
  buy_price: number;
  sell_price: number;
  stop_loss: number | null;
  sparklineData: number[];
  createdAt: string;
}

export interface LiveCyclesResponse {
  cycles: LiveCycle[];
}
