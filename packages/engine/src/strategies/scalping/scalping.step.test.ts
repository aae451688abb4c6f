/** Hand-worked examples of docs/trading-rules.md §2.3 (step 0.001, fee 0.1 %, investment 1000). */
import { describe, expect, it } from 'vitest';
import { intentSummary, runPrices } from '../../testing/harness';
import { scalpingBot } from '../../testing/strategies';

describe('Scalping (docs/trading-rules.md §2.3)', () => {
  it('sells every lot together at tp % above the average entry, then buys grid 1 again', () => {
    // g1 at 100: 5 (quote 500, fee 0.5). g2 at 98 ≤ 100 × 0.98, no trailing: 300/98 → 3.061 (299.978).
    // Average entry = 799.978 / 8.061 = 99.2405…; × 1.015 = 100.7291…: 100.7 is below, 100.8 above.
    // Sell 8.061 × 100.8 = 812.5488, fee 0.8125488. g2: 308.5488 − 0.3085488 − 299.978 − 0.299978 =
    // 7.9622732; g1: 504 − 0.504 − 500 − 0.5 = 2.996. Booked 10.9582732. Grid 1 then rebuys at market.
    const { state, log } = runPrices(
      scalpingBot({ alloc: [0.5, 0.3, 0.2], buy: [2, 2], tp: 1.5 }),
      [100, 98, 100.7, 100.8],
    );
    expect(intentSummary(log)).toEqual([
      '@100 buy g1 5',
      '@98 buy g2 3.061',
      '@100.8 sell g2,g1 8.061 take_profit',
      '@100.8 buy g1 4.96',
    ]);
    expect(log[3]?.closed.map((c) => c.profit)).toEqual([7.9622732, 2.996]);
    expect(state.account.bookedProfit).toBe(10.9582732);
  });

  it('buys the next grid at buy % below the newest lot without waiting for a rebound', () => {
    // g2 at ≤ 98; g3 at ≤ 98 × 0.97 = 95.06: 200 / 95.06 = 2.1039… → 2.103.
    const { log } = runPrices(
      scalpingBot({ alloc: [0.5, 0.3, 0.2], buy: [2, 3], tp: 3 }),
      [100, 98.01, 98, 95.07, 95.06],
    );
    expect(intentSummary(log)).toEqual(['@100 buy g1 5', '@98 buy g2 3.061', '@95.06 buy g3 2.103']);
  });

  it('applies the risk exits first (stoploss)', () => {
    const bot = scalpingBot({ alloc: [0.5, 0.5], tp: 3 }, { settings: { stoplossPrice: 95 } });
    const { state, log } = runPrices(bot, [100, 98, 95]);
    expect(intentSummary(log)).toEqual([
      '@100 buy g1 5',
      '@98 buy g2 5.102',
      '@95 sell g2,g1 10.102 stoploss',
    ]);
    expect(state.status).toBe('Stopped');
  });
});
