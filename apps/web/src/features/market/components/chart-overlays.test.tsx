import { act, render } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setTheme } from '../../../lib/theme';
import type { ChartCandle } from '../api/market-data';
import { CandleChart } from './candle-chart';
import { type ChartLevel, type ChartTrade, candleOf } from './chart-overlays';

// The test DOM has no canvas: the library stands in as a record of the lines and markers it was asked to draw.
const drawn = vi.hoisted(() => ({
  lines: [] as { options: Record<string, unknown>; removed: boolean }[],
  markers: [] as unknown[][],
}));
vi.mock('lightweight-charts', () => {
  const series = () => ({
    setData: () => {},
    update: () => {},
    applyOptions: () => {},
    createPriceLine: (options: Record<string, unknown>) => {
      const line = { options, removed: false };
      drawn.lines.push(line);
      return { applyOptions: (next: Record<string, unknown>) => Object.assign(line.options, next), line };
    },
    removePriceLine: (handle: { line: { removed: boolean } }) => {
      handle.line.removed = true;
    },
  });
  return {
    ColorType: { Solid: 'solid' },
    CrosshairMode: { Normal: 0 },
    LineStyle: { Solid: 0, Dashed: 2 },
    CandlestickSeries: 'Candlestick',
    HistogramSeries: 'Histogram',
    createSeriesMarkers: (_series: unknown, markers: unknown[]) => {
      drawn.markers.push(markers);
      return { setMarkers: (next: unknown[]) => drawn.markers.push(next) };
    },
    createChart: () => ({
      addSeries: series,
      priceScale: () => ({ applyOptions: () => {} }),
      timeScale: () => ({ setVisibleLogicalRange: () => {} }),
      applyOptions: () => {},
      subscribeCrosshairMove: () => {},
      unsubscribeCrosshairMove: () => {},
      remove: () => {},
    }),
  };
});

beforeEach(() => {
  drawn.lines.length = 0;
  drawn.markers.length = 0;
});

const MIN15 = 15 * 60_000;
const T0 = Date.UTC(2025, 2, 1, 0, 0);
const candles: ChartCandle[] = [0, 1, 2, 3].map((i) => ({
  openTimeMs: T0 + i * MIN15,
  open: 100,
  high: 101,
  low: 99,
  close: 100,
  volume: 1,
}));

function chart(levels?: ChartLevel[], trades?: ChartTrade[]) {
  return (
    <CandleChart
      symbol="BTCUSDT"
      market="spot"
      seriesKey="k"
      candles={candles}
      livePrice={undefined}
      levels={levels}
      trades={trades}
    />
  );
}

describe('CandleChart levels and trades', () => {
  it('draws each level as a named line and moves it, not a second one, when its price changes', () => {
    setTheme('dark');
    const { rerender } = render(
      chart([
        { key: 'next-buy', price: 98, title: 'Next buy (grid 2)', tone: 'buy' },
        { key: 'stoploss', price: 90, title: 'Stoploss', tone: 'stop' },
      ]),
    );
    expect(drawn.lines.map((l) => [l.options.title, l.options.price, l.options.color])).toEqual([
      ['Next buy (grid 2)', 98, '#3b82f6'],
      ['Stoploss', 90, '#f6465d'],
    ]);
    rerender(chart([{ key: 'next-buy', price: 97, title: 'Next buy (grid 3)', tone: 'buy' }]));
    expect(drawn.lines).toHaveLength(2);
    expect(drawn.lines[0]?.options).toMatchObject({ title: 'Next buy (grid 3)', price: 97 });
    expect(drawn.lines[1]?.removed).toBe(true);
    // The light theme's own tone, so the line stays readable on a white chart.
    act(() => setTheme('light'));
    expect(drawn.lines[0]?.options.color).toBe('#2563eb');
  });

  it('marks each trade on the candle it happened in, oldest first, and leaves out trades before the candles', () => {
    render(
      chart(undefined, [
        { timeMs: T0 + 2 * MIN15 + 60_000, price: 101, side: 'sell', text: 'S1' },
        { timeMs: T0 + 5 * 60_000, price: 99, side: 'buy', text: 'B1' },
        { timeMs: T0 - 60_000, price: 98, side: 'buy', text: 'B1' },
      ]),
    );
    const markers = drawn.markers.at(-1) as { time: number; shape: string; price: number; text: string }[];
    expect(markers.map((m) => [m.shape, m.price, m.text])).toEqual([
      ['arrowUp', 99, 'B1'],
      ['arrowDown', 101, 'S1'],
    ]);
    expect((markers[1]?.time ?? 0) - (markers[0]?.time ?? 0)).toBe((2 * MIN15) / 1000);
  });

  it('finds the candle a time falls in', () => {
    expect(candleOf(candles, T0 + MIN15 + 1)).toBe(T0 + MIN15);
    expect(candleOf(candles, T0 + 10 * MIN15)).toBe(T0 + 3 * MIN15);
    expect(candleOf(candles, T0 - 1)).toBeNull();
  });
});
