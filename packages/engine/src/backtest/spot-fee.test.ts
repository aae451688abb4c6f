/**
 * Where a spot buy's fee is paid (docs/trading-rules.md §2.1): taken from the coin bought by default, as Binance and
 * the paper exchange take it, or in USDT on top of the quote (`spotBuyFeeAsset: 'quote'`).
 */
import { describe, expect, it } from 'vitest';
import { TEST_RULES } from '../testing/harness';
import { multigridBot } from '../testing/strategies';
import type { Candles } from './candles';
import { runBacktest } from './run-backtest';

/** Flat candles at 100: grid 1 buys 1000 / 100 = 10 coins at once and nothing else happens. */
function flat(): Candles {
  const t = Float64Array.from([0, 60_000, 120_000]);
  const price = new Float64Array(3).fill(100);
  return { openTimeMs: t, open: price, high: price, low: price, close: price };
}

describe('spot buy fee', () => {
  it("with 'quote' is 0.1 % of the quote in USDT: the lot holds all it bought", () => {
    const r = runBacktest(multigridBot({ alloc: [1], tp: [50] }), flat(), TEST_RULES, {
      feePct: 0.1,
      spotBuyFeeAsset: 'quote',
    });
    expect(r.fills.map((f) => [f.side, f.qty, f.quote, f.fee])).toEqual([['buy', 10, 1000, 1]]);
    expect(r.state.lots.map((l) => l.qty)).toEqual([10]);
  });

  it('is 0.1 % of the coins bought by default: the lot holds 9.99, the fee is worth 1 USDT', () => {
    const r = runBacktest(multigridBot({ alloc: [1], tp: [50] }), flat(), TEST_RULES, { feePct: 0.1 });
    expect(r.fills.map((f) => [f.side, f.qty, f.quote, f.fee])).toEqual([['buy', 10, 1000, 1]]);
    expect(r.state.lots.map((l) => l.qty)).toEqual([9.99]);
    // Same money as the USDT fee: 9.99 coins at 100 less 1000 spent = −1, less the fee of selling them (0.999).
    expect(r.summary.totalPnl).toBeCloseTo(-1.999, 9);
  });
});
