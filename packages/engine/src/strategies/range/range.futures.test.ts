/**
 * The futures range grid of docs/trading-rules.md §2.6, worked by hand (tick 0.01, step 0.001, maker 0.02 %,
 * taker 0.05 %, maintenance 0.5 % without a maintenance amount). Grid 90–110 in 4 arithmetic levels: 90, 95,
 * 100, 105, 110; 100 USDT at 10× is a notional of 1000 at the start price 100 (level 2, left empty).
 */
import { type RangeStrategy, rangeStrategySchema } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import type { Candles } from '../../backtest/candles';
import { type RangeFillRecord, runRangeBacktest } from '../../backtest/range-backtest';
import { TEST_FUTURE_RULES } from '../../testing/harness';
import type { PlaceLimit, RangeMarketOrder } from '../../types';
import { applyRangeFill } from './range.fill';
import { movePosition } from './range.futures';
import { createRange, type RangeState } from './range.state';
import { stepRange } from './range.step';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const R = TEST_FUTURE_RULES;

/** Candles from rows of [open, high, low, close], one minute apart from T0. */
function candles(rows: readonly (readonly [number, number, number, number])[]): Candles {
  const col = (i: number) => Float64Array.from(rows.map((r) => r[i] as number));
  return {
    openTimeMs: Float64Array.from(rows.map((_, i) => T0 + i * MIN)),
    open: col(0),
    high: col(1),
    low: col(2),
    close: col(3),
  };
}

function strategy(over: Partial<Record<keyof RangeStrategy, unknown>> = {}): RangeStrategy {
  return rangeStrategySchema.parse({ type: 'range', lower: 90, upper: 110, grids: 4, ...over });
}

function grid(over: Parameters<typeof strategy>[0] = {}): RangeState {
  return createRange({
    params: strategy({ leverage: 10, ...over }),
    investment: 100,
    market: 'future',
    rules: R,
    startTimeMs: T0,
  });
}

const run = (
  s: RangeState,
  rows: Parameters<typeof candles>[0],
  funding?: Parameters<typeof runRangeBacktest>[3],
) => runRangeBacktest(s, candles(rows), R, funding);
const brief = (f: RangeFillRecord) =>
  `${f.side} L${f.level ?? 'mkt'} ${f.qty}@${f.price} fee ${f.fee} pnl ${f.pnl}`;
const book = (s: RangeState) =>
  s.orders.map((o) => `${o.side} L${o.level} ${o.qty}@${o.price}${o.reduceOnly ? ' reduce-only' : ''}`);

describe('futures range grid, long (§2.6)', () => {
  // q = floor(1000 / (90 + 95 + 2 × 100) / 0.001) × 0.001 = 2.597; the start buys 2 × q at market.
  it('opens the long for its sells at the start; a buy is closed one level up for q × 5 less both fees', () => {
    const r = run(grid(), [[100, 100, 95, 100]]);
    expect(r.fills.map(brief)).toEqual([
      // 519.4 × 0.05 % taker
      'buy Lmkt 5.194@100 fee 0.2597 pnl 0',
      // 246.715 × 0.02 % maker
      'buy L1 2.597@95 fee 0.049343 pnl 0',
      // 259.7 − 0.05194 − (246.715 + 0.049343)
      'sell L2 2.597@100 fee 0.05194 pnl 12.883717',
    ]);
    expect(book(r.state)).toEqual([
      'buy L0 2.597@90',
      'buy L1 2.597@95',
      'sell L3 2.597@105 reduce-only',
      'sell L4 2.597@110 reduce-only',
    ]);
    const f = r.state.futures;
    // The sell closed a third of 7.791 (entry 766.115): 766.115 / 3 released, the average entry kept.
    expect(f?.pos).toBe(5.194);
    expect(f?.entry).toBe(510.74333333);
    // Wallet: 100 − fees + (259.7 − 255.37166667) realized against the average entry.
    expect(r.state.quote).toBe(103.96735033);
    expect(r.summary.gridProfit).toBe(12.883717);
    expect(r.summary.matchedTrades).toBe(1);
  });

  it('marks its closing orders reduce-only on the intent, and its start order as opening', () => {
    const s = grid();
    const first = stepRange(s, { price: 100, timeMs: T0 }, R);
    const start = first.intents[0] as RangeMarketOrder;
    expect(start).toMatchObject({ type: 'RangeMarketOrder', side: 'buy', qty: '5.194', reduceOnly: false });
    const filled = applyRangeFill(first.state, {
      seq: start.seq,
      side: 'buy',
      price: 100,
      qty: 5.194,
      quote: 519.4,
      fee: 0.2597,
      timeMs: T0,
    }).state;
    const placed = stepRange(filled, { price: 100, timeMs: T0 }, R).intents as PlaceLimit[];
    expect(placed.map((i) => `${i.side} L${i.level} ${i.reduceOnly}`)).toEqual([
      'buy L0 false',
      'buy L1 false',
      'sell L3 true',
      'sell L4 true',
    ]);
  });

  it('a stop-loss cancels every order and closes the whole position reduce-only at market', () => {
    const r = run(grid({ stopLoss: 89 }), [[100, 100, 88, 88]]);
    expect(r.fills.map(brief)).toEqual([
      'buy Lmkt 5.194@100 fee 0.2597 pnl 0',
      'buy L1 2.597@95 fee 0.049343 pnl 0',
      'buy L0 2.597@90 fee 0.046746 pnl 0',
      // 10.388 × 89 = 924.532, taker 0.462266
      'sell Lmkt 10.388@89 fee 0.462266 pnl 0',
    ]);
    expect(r.state.status).toBe('Stopped');
    expect(r.state.stopReason).toBe('stoploss');
    expect(r.state.orders).toEqual([]);
    expect(r.state.futures?.pos).toBe(0);
    // Bought 999.845 of notional, sold 924.532: the loss and every fee are in the wallet.
    expect(r.state.quote).toBeCloseTo(100 - 0.2597 - 0.049343 - 0.046746 - 0.462266 + 924.532 - 999.845, 8);
    expect(r.summary.totalPnl).toBeCloseTo(r.state.quote - 100, 8);
  });

  it('trails up one level above the top: cancels the lowest buy, opens q at market, closes it at the new top', () => {
    const r = run(grid({ trailingUp: true }), [[100, 115, 100, 115]]);
    expect(r.fills.map(brief).slice(3)).toEqual([
      // 2.597 × 115 = 298.655 at the 0.05 % taker fee
      'buy Lmkt 2.597@115 fee 0.1493275 pnl 0',
    ]);
    expect(r.state.offset).toBe(1);
    expect(book(r.state)).toEqual([
      'buy L1 2.597@95',
      'buy L2 2.597@100',
      'buy L3 2.597@105',
      'sell L5 2.597@115 reduce-only',
    ]);
    expect(r.state.futures?.pos).toBe(2.597);
  });

  it('is liquidated at its liquidation price on the path, losing its margin', () => {
    // After the buys at 95 and 90: Q 10.388, Q × E 999.845, margin 51.94 + 24.6715 + 23.373 = 99.9845;
    // liq = (999.845 − 99.9845) / (10.388 × 0.995) = 87.06030151 (rounded up to 8 decimals).
    const r = run(grid(), [[100, 100, 80, 80]]);
    const last = r.fills[r.fills.length - 1] as RangeFillRecord;
    expect(r.state.stopReason).toBe('liquidated');
    expect(last.side).toBe('sell');
    expect(last.price).toBe(87.06030151);
    expect(last.pnl).toBe(-99.9845);
    expect(r.state.futures?.pos).toBe(0);
    // The start, two buys and the liquidation; the wallet lost the margin.
    expect(r.summary.trades).toBe(r.fills.length);
    expect(r.state.orders).toEqual([]);
  });
});

describe('futures range grid on mark candles (§2.2)', () => {
  // The long of the test above: liquidation price 87.06030151 once the buys at 95 and 90 filled.
  it('is liquidated where the mark path reaches the liquidation price, not where the trade price does', () => {
    const trades = candles([[100, 100, 86, 90]]);
    const spared = runRangeBacktest(grid(), trades, R, { mark: candles([[100, 100, 88, 90]]) });
    expect(spared.state.status).toBe('Live');
    expect(spared.state.futures?.pos).toBe(10.388);
    const hit = runRangeBacktest(grid(), trades, R, { mark: candles([[100, 100, 87, 90]]) });
    expect(hit.state.stopReason).toBe('liquidated');
    const last = hit.fills[hit.fills.length - 1] as RangeFillRecord;
    expect(last.price).toBe(87.06030151);
    expect(last.pnl).toBe(-99.9845);
    // Without mark candles the trade path stands in for the mark.
    expect(runRangeBacktest(grid(), trades, R).state.stopReason).toBe('liquidated');
  });
});

describe('futures range grid, short (§2.6)', () => {
  // q = floor(1000 / (2 × 100 + 105 + 110) / 0.001) × 0.001 = 2.409; the start sells 2 × q at market.
  it('opens the short for its buys at the start; a sell is closed one level down for q × 5 less both fees', () => {
    const r = run(grid({ direction: 'short' }), [[100, 105, 100, 100]]);
    expect(r.fills.map(brief)).toEqual([
      'sell Lmkt 4.818@100 fee 0.2409 pnl 0',
      // 252.945 × 0.02 %
      'sell L3 2.409@105 fee 0.050589 pnl 0',
      // (252.945 − 0.050589) − 240.9 − 0.04818
      'buy L2 2.409@100 fee 0.04818 pnl 11.946231',
    ]);
    expect(book(r.state)).toEqual([
      'buy L0 2.409@90 reduce-only',
      'buy L1 2.409@95 reduce-only',
      'sell L3 2.409@105',
      'sell L4 2.409@110',
    ]);
    expect(r.state.futures?.pos).toBe(-4.818);
  });

  it('trails down one level below the bottom: cancels the top order, sells q at market, buys at the new bottom', () => {
    const r = run(grid({ direction: 'short', trailingDown: true, trailingDownLimit: 70 }), [
      [100, 100, 85, 85],
    ]);
    expect(r.fills.map(brief)).toEqual([
      'sell Lmkt 4.818@100 fee 0.2409 pnl 0',
      // each buy closes q of the short opened at 100: (481.8 − 0.2409) / 2 − (q × P + fee)
      'buy L1 2.409@95 fee 0.045771 pnl 11.878779',
      'buy L0 2.409@90 fee 0.043362 pnl 23.926188',
      'sell Lmkt 2.409@85 fee 0.1023825 pnl 0',
    ]);
    expect(r.state.offset).toBe(-1);
    expect(r.state.futures?.trailDownAt).toBe(80);
    expect(book(r.state)).toEqual([
      'buy L-1 2.409@85 reduce-only',
      'sell L1 2.409@95',
      'sell L2 2.409@100',
      'sell L3 2.409@105',
    ]);
    expect(r.state.futures?.pos).toBe(-2.409);
  });

  it('a take-profit cancels every order and closes the short with a reduce-only market buy', () => {
    const s = run(grid({ direction: 'short', takeProfit: 112 }), [[100, 110, 100, 110]]).state;
    // The start's 4.818 and the sells at 105 and 110: short 9.636.
    expect(s.futures?.pos).toBe(-9.636);
    const r = stepRange(s, { price: 112, timeMs: T0 }, R);
    expect(r.intents.filter((i) => i.type === 'CancelOrder')).toHaveLength(s.orders.length);
    expect(r.intents[r.intents.length - 1]).toMatchObject({
      type: 'RangeMarketOrder',
      side: 'buy',
      qty: '9.636',
      reduceOnly: true,
    });
    expect(r.state).toMatchObject({ status: 'Stopped', stopReason: 'take_profit', orders: [] });
    const closed = run(grid({ direction: 'short', takeProfit: 112 }), [
      [100, 110, 100, 110],
      [110, 112, 110, 112],
    ]);
    const last = closed.fills[closed.fills.length - 1];
    // 9.636 × 112 = 1079.232 at the 0.05 % taker fee
    expect(last).toMatchObject({ side: 'buy', level: null, qty: 9.636, price: 112, fee: 0.539616 });
    expect(closed.state.futures?.pos).toBe(0);
  });

  it('is liquidated by the mark price, not the last price', () => {
    const s = run(grid({ direction: 'short' }), [[100, 100, 100, 100]]).state;
    const liq = s.futures?.liqPrice as number;
    // 4.818 short at 100 with 48.18 margin: (481.8 + 48.18) / (4.818 × 1.005) = 109.45273631
    expect(liq).toBe(109.45273631);
    expect(stepRange(s, { price: 109.5, markPrice: 109, timeMs: T0 }, R).state.status).toBe('Live');
    const hit = stepRange(s, { price: 109, markPrice: 109.5, timeMs: T0 }, R).state;
    expect(hit.stopReason).toBe('liquidated');
    expect(hit.quote).toBeCloseTo(s.quote - 48.18, 8);
  });
});

describe('futures range grid, neutral (§2.6)', () => {
  // q = floor(1000 / (90 + 95 + 105 + 110) / 0.001) × 0.001 = 2.5; nothing opens at the start.
  it('opens longs below and shorts above, each closed one level away; the position is their sum', () => {
    const r = run(grid({ direction: 'neutral' }), [
      [100, 100, 95, 100],
      [100, 105, 100, 105],
    ]);
    expect(r.fills.map(brief)).toEqual([
      'buy L1 2.5@95 fee 0.0475 pnl 0',
      // 250 − 0.05 − (237.5 + 0.0475)
      'sell L2 2.5@100 fee 0.05 pnl 12.4025',
      'sell L3 2.5@105 fee 0.0525 pnl 0',
    ]);
    expect(r.state.futures?.pos).toBe(-2.5);
    expect(book(r.state)).toEqual([
      'buy L0 2.5@90',
      'buy L1 2.5@95',
      'buy L2 2.5@100 reduce-only',
      'sell L4 2.5@110',
    ]);
  });
});

describe('futures range grid, neutral stop (§2.6)', () => {
  it('a stop-loss closes the net position of its longs reduce-only', () => {
    const r = run(grid({ direction: 'neutral', stopLoss: 85 }), [[100, 100, 84, 84]]);
    expect(r.fills.map(brief)).toEqual([
      'buy L1 2.5@95 fee 0.0475 pnl 0',
      'buy L0 2.5@90 fee 0.045 pnl 0',
      // 5 × 85 = 425 at the 0.05 % taker fee
      'sell Lmkt 5@85 fee 0.2125 pnl 0',
    ]);
    expect(r.state).toMatchObject({ status: 'Stopped', stopReason: 'stoploss', orders: [] });
    expect(r.state.futures?.pos).toBe(0);
    // (425 − 237.5 − 225) realized, less the three fees
    expect(r.state.quote).toBeCloseTo(100 - 37.5 - 0.0475 - 0.045 - 0.2125, 8);
  });
});

describe('futures range grid funding (§2.2)', () => {
  it('pays position × mark price × rate at each funding time while the position is open', () => {
    const r = run(
      grid(),
      [
        [100, 100, 100, 100],
        [101, 101, 101, 101],
      ],
      { funding: { timeMs: Float64Array.from([T0 + MIN]), rate: Float64Array.from([0.0001]) } },
    );
    const row = r.fills.find((f) => f.side === 'FUNDING');
    // 5.194 × 101 × 0.0001 paid by the long
    expect(row?.pnl).toBe(-0.0524594);
    expect(r.summary.funding).toBe(-0.0524594);
  });
});

describe('futures position (§2.2)', () => {
  it('keeps the average entry on a partial close and realizes against it', () => {
    const f = createRange({
      params: strategy({ leverage: 5 }),
      investment: 100,
      market: 'future',
      rules: R,
      startTimeMs: T0,
    }).futures;
    if (f === undefined) throw new Error('futures grid expected');
    const a = movePosition(f, 'buy', 2, 200).futures;
    const b = movePosition(a, 'buy', 2, 180).futures;
    const c = movePosition(b, 'sell', 1, 100);
    expect(c.futures).toMatchObject({ pos: 3, entry: 285, margin: 57 });
    expect(c.realized).toBe(5);
  });
});
