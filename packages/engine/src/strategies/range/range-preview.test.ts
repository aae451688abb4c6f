/**
 * The start form's preview of a range grid (docs/trading-rules.md §2.6), worked by hand on the shipped market
 * rules: BTCUSDT spot (tick 0.01, step 0.00001, minimum 5 USDT, maker fee 0.1 %) and ETHUSDT futures (tick 0.01,
 * step 0.001, minimum 20 USDT, maker fee 0.02 %).
 */
import { describe, expect, it } from 'vitest';
import { previewRange } from './range-preview';

const spot = (over: Record<string, unknown> = {}, investment = 1000) => ({
  symbol: 'BTCUSDT',
  category: 'spot' as const,
  investment,
  strategy: { type: 'range', lower: 90000, upper: 100000, grids: 10, ...over },
});

describe('previewRange', () => {
  it('spot at 95,000: ten levels 1,000 apart, 0.00106 per order, five sells bought at market', () => {
    // Buys at 90,000…94,000 (Σ 460,000), five sells counted at the price: 1000 / (460,000 + 5 × 95,000)
    // = 0.0010695… → 0.00106 on the step.
    const p = previewRange(spot(), 95000);
    if (!p.ok) throw new Error(p.problems.join('; '));
    expect(p.levels).toEqual([90000, 91000, 92000, 93000, 94000, 95000, 96000, 97000, 98000, 99000, 100000]);
    expect(p.nearest).toBe(5);
    expect(p.qty).toBe(0.00106);
    expect([p.buys, p.sells]).toEqual([5, 5]);
    // 5 × 0.00106 = 0.0053 BTC, 503.5 USDT at 95,000.
    expect(p.startOrder).toEqual({ side: 'buy', qty: 0.0053, quote: 503.5 });
    // Lowest pair: (91,000 × 0.999 − 90,000 × 1.001) / 90,000 = 819 / 90,000 = 0.91 %.
    // Highest pair: (100,000 × 0.999 − 99,000 × 1.001) / 99,000 = 801 / 99,000 = 0.8091 %.
    expect(p.profitPerGridPct).toEqual({ min: 0.8091, max: 0.91 });
    expect(p.feePct).toBe(0.1);
  });

  it('refuses spacing that does not cover twice the fee, naming the minimum', () => {
    // 90,000–91,000 in 10: 100 apart, 100 / 90,900 = 0.11 % at the top, below 2 × 0.1 %.
    const p = previewRange(spot({ upper: 91000 }), 90500);
    expect(p.ok).toBe(false);
    if (p.ok) return;
    expect(p.stage).toBe('start');
    expect(p.problems.join('\n')).toContain('does not cover twice the 0.1% fee: the minimum spacing is 0.2%');
  });

  it('refuses an order below the minimum notional', () => {
    // 10 USDT: 10 / 935,000 = 0.0000106… → 0.00001 BTC, 0.9 USDT at 90,000.
    const p = previewRange(spot({}, 10), 95000);
    expect(p.ok).toBe(false);
    if (p.ok) return;
    expect(p.problems).toEqual([
      'an order of 0.00001 at 90000 is 0.9 USDT, below the minimum order of 5 USDT for BTCUSDT: invest more or use fewer grids',
    ]);
  });

  it('refuses out-of-bounds values with the strategy schema message', () => {
    const p = previewRange(spot({ stopLoss: 95000 }), 95000);
    expect(p).toEqual({ ok: false, stage: 'strategy', problems: ['stopLoss: stopLoss must be below lower'] });
  });

  const future = (direction: string) => ({
    symbol: 'ETHUSDT',
    category: 'future' as const,
    investment: 500,
    strategy: { type: 'range', lower: 2000, upper: 3000, grids: 10, direction, leverage: 2 },
  });

  it('futures short at 2,500: the buys count at the price, the start sells what they close', () => {
    // 500 × 2 = 1000 of notional over 5 × 2,500 + (2,600 + … + 3,000 = 14,000) = 26,500 → 0.037 on the step.
    const p = previewRange(future('short'), 2500);
    if (!p.ok) throw new Error(p.problems.join('; '));
    expect(p.qty).toBe(0.037);
    // 5 × 0.037 = 0.185 ETH, 462.5 USDT at 2,500.
    expect(p.startOrder).toEqual({ side: 'sell', qty: 0.185, quote: 462.5 });
    // (2,100 × 0.9998 − 2,000 × 1.0002) / 2,000 = 4.959 %; (3,000 × 0.9998 − 2,900 × 1.0002) / 2,900 = 3.4076 %.
    expect(p.profitPerGridPct).toEqual({ min: 3.4076, max: 4.959 });
    expect(p.feePct).toBe(0.02);
  });

  it('futures neutral opens nothing at the start and counts every level at its price', () => {
    // 1000 / (11,000 below + 14,000 above) = 0.04.
    const p = previewRange(future('neutral'), 2500);
    if (!p.ok) throw new Error(p.problems.join('; '));
    expect(p.qty).toBe(0.04);
    expect(p.startOrder).toBeNull();
  });
});
