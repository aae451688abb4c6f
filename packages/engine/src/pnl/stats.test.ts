import { describe, expect, it } from 'vitest';
import { createCycle } from '../strategies/cycle/cycle.state';
import { runPrices } from '../testing/harness';
import { multigridBot } from '../testing/strategies';
import { aprPct, roiPct } from './pnl';
import { botStats } from './stats';

const HOUR = 3_600_000;
const START = 1_700_000_000_000; // 2023-11-14T22:13:20Z

describe('bot statistics (docs/spec/01-core-screens.md §3) from the engine state', () => {
  it('reports grids, prices, PnL, ROI, APY, daily profit and drawdown', () => {
    // Ticks one hour apart from 22:13 UTC: g1 5 @ 100, g2 3.061 @ 98, then at 00:13 the next day both
    // sell at 102 (booked 20.6218, see multigrid tests) and g1 rebuys 4.901 @ 102 (quote 499.902).
    // Unrealized at 102 = 499.902 − 499.902 − 0.499902 = −0.499902; total 20.121898; ROI 2.0121898 %;
    // runtime 2 h → APY = ROI × 365 / max(2/24, 1) = 734.449277 %. Drawdown: at 98 the equity is
    // 1000 + 5 × 98 − 500.5 = 989.5 against a peak of 1000 → 1.05 %.
    const bot = multigridBot({ alloc: [0.5, 0.3, 0.2] });
    const { state } = runPrices(bot, [100, 98, 102], undefined, { startMs: START, stepMs: HOUR });
    const stats = botStats(state, { price: 102, timeMs: START + 2 * HOUR });
    expect(stats).toMatchObject({
      status: 'Live',
      runtimeMs: 2 * HOUR,
      gridNo: 1,
      totalGrid: 3,
      lastBuyingPrice: 102,
      avgBuyPrice: 102,
      purchasedQty: 4.901,
      investment: 1000,
      bookedProfit: 20.6218,
      unrealizedPnl: -0.499902,
      totalPnl: 20.121898,
      roiPct: 2.0121898,
      apyPct: 734.449277,
      datewiseProfit: { '2023-11-15': 20.6218 },
      liquidationPrice: null,
      progress: null,
    });
    expect(stats.maxDrawdownPct).toBeCloseTo(1.05, 9);
  });

  it('counts the lots being sold as open grids, and the newest lot (highest id) wherever it sits', () => {
    // The same bot after g1 rebought at 102, with an older lot at 95 below it on the stack. A sell of the 102
    // lot is in flight: the lot sits in the pending intent, off the stack. The screens still count it: two
    // grids used, and the last buying price is the newest lot's (102), though it is no longer on the stack.
    const bot = multigridBot({ alloc: [0.5, 0.3, 0.2] });
    const { state } = runPrices(bot, [100, 98, 102], undefined, { startMs: START, stepMs: HOUR });
    const [lot] = state.lots;
    const older = { ...lot!, id: lot!.id - 10, price: 95 };
    const selling = {
      ...state,
      lots: [older],
      pending: [
        {
          intent: { type: 'SellLots', seq: 9 },
          lots: [lot!],
          prevStatus: 'Live',
          prevStopReason: null,
          setStatus: null,
        },
      ],
    } as unknown as typeof state;
    const stats = botStats(selling, { price: 102, timeMs: START + 2 * HOUR });
    expect(stats.gridNo).toBe(2);
    expect(stats.lastBuyingPrice).toBe(102);
  });

  it('takes the fee of selling the holdings at market out of the unrealized PnL when given its rate', () => {
    // The same bot at 102: 4.901 held worth 499.902; selling them at 0.1 % would cost 0.499902.
    const bot = multigridBot({ alloc: [0.5, 0.3, 0.2] });
    const { state } = runPrices(bot, [100, 98, 102], undefined, { startMs: START, stepMs: HOUR });
    const stats = botStats(state, { price: 102, timeMs: START + 2 * HOUR }, 0.1);
    expect(stats.unrealizedPnl).toBeCloseTo(-0.499902 - 0.499902, 12);
    expect(stats.totalPnl).toBeCloseTo(20.6218 - 0.999804, 12);
  });

  it('reports cycle progress as completed cycles plus one half while holding', () => {
    const c = createCycle({
      params: { buyPrice: 100, sellPrice: 110, stopLoss: null, cycles: 4, amount: 100 },
      market: 'spot',
      startTimeMs: 0,
    });
    const { state } = runPrices(c, [100, 110, 100]);
    expect(botStats(state, { price: 100, timeMs: 0 })).toMatchObject({
      progress: 0.375,
      gridNo: 1,
      lastBuyingPrice: 100,
    });
  });

  it('computes ROI and APY of docs/trading-rules.md §2.1', () => {
    expect(roiPct(50, 1000)).toBe(5);
    expect(aprPct(5, 10 * 24 * HOUR)).toBe(182.5); // 5 × 365 / 10 days
    expect(aprPct(5, HOUR)).toBe(1825); // runtime below a day counts as one day
  });
});
