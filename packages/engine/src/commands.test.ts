/**
 * Hand-worked examples of the commands a user gives a running grid bot. Rules: step 0.001, min notional 5;
 * fee 0.1 % of quote. Investment 1000, alloc [0.5, 0.3, 0.2] → grid quotes 500, 300, 200.
 */
import { describe, expect, it } from 'vitest';
import { addFunds, resumePaused } from './commands';
import { step } from './engine';
import { InvariantError } from './errors';
import { intentSummary, runPrices, TEST_FUTURE_RULES, TEST_RULES } from './testing/harness';
import { multigridBot, scalpingBot } from './testing/strategies';

const noTp = { alloc: [0.5, 0.3, 0.2], buyUp: [0, 0], tp: [50, 50, 50] };

describe('resumePaused: the user restarts a bot its pause price paused', () => {
  // g1 at 100 (5), g2 at 98 (3.061); at 110 ≥ pause everything is sold and the bot pauses.
  const paused = () =>
    runPrices(
      multigridBot(noTp, { settings: { pausePrice: 110, restartPrice: 100, stoplossPrice: 80 } }),
      [100, 98, 110],
    ).state;

  it('goes Live and buys grid 1 at the market price on its next step, above its old pause price', () => {
    const before = paused();
    expect(before).toMatchObject({ status: 'Pause', lots: [] });
    // Left paused, 112 changes nothing: it waits for 100.
    expect(intentSummary(runPrices(before, [112]).log)).toEqual([]);

    const resumed = resumePaused(before);
    expect(resumed.status).toBe('Live');
    expect(resumed.settings).toMatchObject({ pausePrice: null, restartPrice: null, stoplossPrice: 80 });
    // 500 / 112 = 4.4642… → 4.464 (step 0.001); quote 4.464 × 112 = 499.968. The pause price is gone, so
    // 112 does not pause it again; the grids go on from the new lot: g2 at 112 × 0.98 = 109.76.
    const { state, log } = runPrices(resumed, [112, 110, 109.76]);
    expect(intentSummary(log)).toEqual(['@112 buy g1 4.464', '@109.76 buy g2 2.733']);
    expect(state.lots[0]).toMatchObject({ grid: 1, price: 112, qty: 4.464, quote: 499.968 });
    expect(state.status).toBe('Live');
  });

  it('keeps what the pause booked', () => {
    // g2: 3.061 × 110 = 336.71 − 0.33671 − 299.978 − 0.299978 = 36.095312; g1: 550 − 0.55 − 500.5 = 48.95.
    const resumed = resumePaused(paused());
    expect(resumed.account.bookedProfit).toBe(85.045312);
    expect(resumed.account.investment).toBe(1000);
  });

  it('leaves a bot that is not paused as it is', () => {
    const live = runPrices(multigridBot(noTp, { settings: { pausePrice: 110 } }), [100]).state;
    expect(resumePaused(live)).toBe(live);
  });

  it('refuses while the sale of the pause is still out (a failed sale puts the bot back to Live)', () => {
    const held = runPrices(multigridBot(noTp, { settings: { pausePrice: 110 } }), [100]).state;
    const selling = step(held, { price: 110, timeMs: 1_700_000_600_000 }, TEST_RULES).state;
    expect(selling).toMatchObject({ status: 'Pause' });
    expect(selling.pending).toHaveLength(1);
    expect(() => resumePaused(selling)).toThrow(InvariantError);
  });

  it('resumes a Scalping bot the same way', () => {
    // One grid of 1000 at 100 → 10; tp 50 %. At 120 ≥ pause: sold, paused. Resumed: 1000 / 125 = 8 at 125.
    const bot = scalpingBot({ alloc: [1], tp: 50 }, { settings: { pausePrice: 120 } });
    const { state } = runPrices(bot, [100, 120]);
    expect(state.status).toBe('Pause');
    const { log } = runPrices(resumePaused(state), [125]);
    expect(intentSummary(log)).toEqual(['@125 buy g1 8']);
  });
});

describe('addFunds: the user adds money to a running grid bot', () => {
  it('raises every grid not yet bought in proportion; the lot bought stays as it is', () => {
    // g1 at 100: 500 / 100 = 5. Add 500 → investment 1500: g2 gets 0.3 × 1500 = 450 (300 before),
    // g3 0.2 × 1500 = 300 (200 before). g2 at 98: 450 / 98 = 4.5918… → 4.591 (3.061 without the funds).
    // g3 at 98 × 0.98 = 96.04: 300 / 96.04 = 3.1236… → 3.123.
    const bought = runPrices(multigridBot(noTp), [100]).state;
    const more = addFunds(bought, 500);
    expect(more.account.investment).toBe(1500);
    expect(more.lots).toEqual(bought.lots);
    const { log } = runPrices(more, [98, 96.04]);
    expect(intentSummary(log)).toEqual(['@98 buy g2 4.591', '@96.04 buy g3 3.123']);
  });

  it('counts the money put in as neither a new high nor a drawdown', () => {
    // Lot 5 bought at 100 (cost 500.5). At 99 equity = 1000 + 495 − 500.5 = 994.5, peak 1000 → drawdown 0.55 %.
    // Add 250: peak 1250. Back at 100, equity 1000 + 250 + 500 − 500.5 = 1249.5: below the peak, not a new
    // high, and its drawdown 0.5 / 1250 = 0.04 % leaves the 0.55 % kept.
    const bought = runPrices(multigridBot(noTp), [100, 99]).state;
    expect(bought.stats.peakEquity).toBe(1000);
    expect(bought.stats.maxDrawdownPct).toBeCloseTo(0.55, 10);
    const more = addFunds(bought, 250);
    expect(more.stats.peakEquity).toBe(1250);
    const after = runPrices(more, [100]).state;
    expect(after.stats.peakEquity).toBe(1250);
    expect(after.stats.maxDrawdownPct).toBeCloseTo(0.55, 10);
    expect(after.account.bookedProfit).toBe(0);
  });

  it('adds margin to a futures bot: the next grid buys its larger margin times the leverage', () => {
    // Leverage 2, margin 1000, alloc [0.5, 0.5]: g1 500 × 2 = 1000 notional at 100 → 10.
    // Add 200 → 1200: g2 margin 600 × 2 = 1200 notional at 98 → 12.2448… → 12.244.
    const bot = multigridBot(
      { alloc: [0.5, 0.5], buyUp: [0], tp: [50, 50] },
      { market: 'future', leverage: 2 },
    );
    const bought = runPrices(bot, [100], TEST_FUTURE_RULES).state;
    const { log } = runPrices(addFunds(bought, 200), [98], TEST_FUTURE_RULES);
    expect(intentSummary(log)).toEqual(['@98 buy g2 12.244']);
  });

  it('refuses an amount that is not positive, and a stopped bot', () => {
    const bot = multigridBot(noTp);
    expect(() => addFunds(bot, 0)).toThrow(InvariantError);
    expect(() => addFunds(bot, Number.NaN)).toThrow(InvariantError);
    const stopped = runPrices(multigridBot(noTp, { settings: { stoplossPrice: 90 } }), [100, 90]).state;
    expect(stopped.status).toBe('Stopped');
    expect(() => addFunds(stopped, 100)).toThrow(InvariantError);
  });
});
