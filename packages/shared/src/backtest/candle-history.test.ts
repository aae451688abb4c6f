import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CandleColumns,
  candleHistoryMessages,
  candleHistoryQuerySchema,
  decodeCandles,
  encodeCandles,
  sliceCandles,
} from './candle-history';

function columns(rows: [number, number, number, number, number][]): CandleColumns {
  return {
    openTimeMs: Float64Array.from(rows.map((r) => r[0])),
    open: Float64Array.from(rows.map((r) => r[1])),
    high: Float64Array.from(rows.map((r) => r[2])),
    low: Float64Array.from(rows.map((r) => r[3])),
    close: Float64Array.from(rows.map((r) => r[4])),
  };
}
const meta = { symbol: 'BTCUSDT', category: 'spot', interval: '1h', source: 'embedded' } as const;
const H = 3_600_000;

describe('candle encoding', () => {
  it('stores small integers: steps in intervals, a gap as a larger step, prices in units of the finest decimal', () => {
    const cols = columns([
      [0, 100.5, 101, 100, 100.75],
      [H, 100.75, 100.8, 99.9, 100],
      // Two hours missing (a gap as Binance had it).
      [4 * H, 101, 102.25, 101, 102],
    ]);
    const e = encodeCandles(cols, meta);
    expect(e.decimals).toBe(2);
    expect(e.startMs).toBe(0);
    expect(e.dt).toEqual([0, 1, 3]);
    expect(e.o).toEqual([10050, 0, 100]);
    expect(e.c).toEqual([25, -75, 100]);
    expect(e.h).toEqual([25, 5, 25]);
    expect(e.l).toEqual([50, 10, 0]);
    expect(decodeCandles(e)).toEqual(cols);
  });

  it('gives back every candle exactly (property)', () => {
    const candle = fc
      .record({
        gap: fc.integer({ min: 1, max: 5 }),
        decimals: fc.integer({ min: 0, max: 8 }),
        units: fc.array(fc.integer({ min: 1, max: 9_000_000 }), { minLength: 4, maxLength: 4 }),
      })
      .map(({ gap, decimals, units }) => {
        const [a, b, c, d] = units.map((u) => Number((u / 10 ** decimals).toFixed(decimals))) as number[];
        const lo = Math.min(a!, b!, c!, d!);
        const hi = Math.max(a!, b!, c!, d!);
        return { gap, o: a!, c: b!, h: hi, l: lo };
      });
    fc.assert(
      fc.property(fc.array(candle, { minLength: 0, maxLength: 40 }), (list) => {
        let t = 1_700_000_000_000 - (1_700_000_000_000 % H);
        const rows = list.map((k) => {
          t += k.gap * H;
          return [t, k.o, k.h, k.l, k.c] as [number, number, number, number, number];
        });
        const cols = columns(rows);
        expect(decodeCandles(encodeCandles(cols, meta))).toEqual(cols);
      }),
    );
  });

  it('slices a period by open time, from inclusive and to exclusive', () => {
    const cols = columns([0, 1, 2, 3].map((i) => [i * H, 1, 1, 1, 1]));
    expect(Array.from(sliceCandles(cols, H, 3 * H).openTimeMs)).toEqual([H, 2 * H]);
    expect(sliceCandles(cols, 10 * H, 11 * H).openTimeMs.length).toBe(0);
  });
});

describe('candle history query', () => {
  it('takes symbol, category, interval and a period in Unix ms', () => {
    const q = candleHistoryQuerySchema.parse({
      symbol: 'btc/usdt',
      interval: '15m',
      from: '0',
      to: String(H),
    });
    expect(q).toEqual({ symbol: 'BTCUSDT', category: 'spot', interval: '15m', from: 0, to: H });
  });

  it('refuses other intervals, a period that ends before it starts and one that is too long', () => {
    const base = { symbol: 'BTCUSDT', interval: '1h', from: 0, to: H };
    const msg = (q: object) => candleHistoryQuerySchema.safeParse(q).error?.issues[0]?.message;
    expect(msg({ ...base, interval: '5m' })).toBe(candleHistoryMessages.intervalInvalid);
    expect(msg({ ...base, to: 0 })).toBe(candleHistoryMessages.periodInvalid);
    expect(msg({ ...base, interval: '1m', to: 200_001 * 60_000 })).toBe(candleHistoryMessages.periodTooLong);
  });
});
