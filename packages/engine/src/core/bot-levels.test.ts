/** Hand-worked levels of docs/trading-rules.md §2.2 and §2.3 (step 0.001, fee 0.1 %, investment 1000). */
import { describe, expect, it } from 'vitest';
import { runPrices } from '../testing/harness';
import { multigridBot, scalpingBot } from '../testing/strategies';
import { botLevels } from './bot-levels';

const ALLOC = [0.5, 0.3, 0.2];

describe('botLevels', () => {
  it('Multigrid: the next grid below the newest lot, and a take-profit per lot at its own tp', () => {
    // g1 at 100, g2 at 98 (≤ 100 × 0.98, no rebound). Next: g3 at 98 × (1 − 3/100) = 95.06.
    // TP g1 = 100 × 1.02 = 102; TP g2 = 98 × 1.03 = 100.94.
    const { state } = runPrices(multigridBot({ alloc: ALLOC, buy: [2, 3], tp: [2, 3, 4] }), [100, 98]);
    const levels = botLevels(state);
    expect(levels.nextBuy?.grid).toBe(3);
    expect(levels.nextBuy?.price).toBeCloseTo(95.06, 9);
    expect(levels.takeProfits.map((t) => t.grid)).toEqual([1, 2]);
    expect(levels.takeProfits[0]?.price).toBeCloseTo(102, 9);
    expect(levels.takeProfits[1]?.price).toBeCloseTo(100.94, 9);
    expect(levels.takeProfits.every((t) => !t.armed)).toBe(true);
  });

  it('Multigrid: a lot whose take-profit was reached shows as armed while the trailing sell waits', () => {
    // g1 at 100, tp 2 % with a 1 % trailing drop: 102.5 arms it (high 102.5); it sells at ≤ 101.475.
    const { state } = runPrices(
      multigridBot({ alloc: ALLOC, tp: [2, 2, 2], tpDown: [1, 1, 1] }),
      [100, 102.5],
    );
    expect(botLevels(state).takeProfits).toMatchObject([{ grid: 1, armed: true }]);
  });

  it('an empty stack has no next-buy level (grid 1 buys at market) and no take-profit', () => {
    const levels = botLevels(multigridBot({ alloc: ALLOC }));
    expect(levels).toEqual({ nextBuy: null, takeProfits: [], pause: null, restart: null, stoploss: null });
  });

  it('no next buy once every grid is bought, or above the overbuy protection', () => {
    const full = runPrices(multigridBot({ alloc: ALLOC, buy: [2, 2] }), [100, 98, 96.04]).state;
    expect(full.lots).toHaveLength(3);
    expect(botLevels(full).nextBuy).toBeNull();
    const guarded = runPrices(
      multigridBot({ alloc: ALLOC, buy: [2, 2] }, { settings: { overbuy: { active: true, value: 2 } } }),
      [100, 98],
    ).state;
    expect(botLevels(guarded).nextBuy).toBeNull();
  });

  it('a paused bot buys nothing: no next buy, and its pause and restart prices are shown', () => {
    // Pause at 103 sells g1 (bought at 100) and pauses; restart at 99.
    const { state } = runPrices(
      multigridBot(
        { alloc: ALLOC, tp: [5, 5, 5] },
        { settings: { pausePrice: 103, restartPrice: 99, stoplossPrice: 90 } },
      ),
      [100, 103],
    );
    expect(state.status).toBe('Pause');
    expect(botLevels(state)).toEqual({
      nextBuy: null,
      takeProfits: [],
      pause: 103,
      restart: 99,
      stoploss: 90,
    });
  });

  it('Scalping: the next grid without trailing, one take-profit on the average entry', () => {
    // g1 at 100: 5 for 500; g2 at 98: 3.061 for 299.978. Average entry 799.978 / 8.061 = 99.24054…;
    // × 1.015 = 100.72915…. Next: g3 at 98 × 0.98 = 96.04.
    const { state } = runPrices(scalpingBot({ alloc: ALLOC, buy: [2, 2], tp: 1.5 }), [100, 98]);
    const levels = botLevels(state);
    expect(levels.nextBuy?.grid).toBe(3);
    expect(levels.nextBuy?.price).toBeCloseTo(96.04, 9);
    expect(levels.takeProfits).toHaveLength(1);
    expect(levels.takeProfits[0]?.grid).toBeNull();
    expect(levels.takeProfits[0]?.price).toBeCloseTo((799.978 / 8.061) * 1.015, 9);
    expect(levels.takeProfits[0]?.price).toBeCloseTo(100.72915, 4);
  });
});
