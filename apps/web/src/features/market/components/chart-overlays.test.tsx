import { act, fireEvent, render } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setTheme } from '../../../lib/theme';
import type { ChartCandle } from '../api/market-data';
import { CandleChart } from './candle-chart';
import { type ChartLevel, type ChartTrade, candleOf, widenToLevels } from './chart-overlays';

// The test DOM has no canvas: the library stands in as a record of the lines and markers it was asked to draw.
const drawn = vi.hoisted(() => ({
  lines: [] as { options: Record<string, unknown>; removed: boolean }[],
  markers: [] as unknown[][],
  chartOptions: [] as Record<string, unknown>[],
  /** Options given to the candles' price axis (autoScale on and off around a drag). */
  axisOptions: [] as Record<string, unknown>[],
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
    priceScale: () => ({
      applyOptions: (options: Record<string, unknown>) => drawn.axisOptions.push(options),
    }),
    // A price axis of 1 px per USDT, 200 at the top: price 100 is 100 px down the chart.
    priceToCoordinate: (price: number) => 200 - price,
    coordinateToPrice: (y: number) => 200 - y,
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
      applyOptions: (options: Record<string, unknown>) => drawn.chartOptions.push(options),
      subscribeCrosshairMove: () => {},
      unsubscribeCrosshairMove: () => {},
      remove: () => {},
    }),
  };
});

beforeEach(() => {
  drawn.lines.length = 0;
  drawn.markers.length = 0;
  drawn.chartOptions.length = 0;
  drawn.axisOptions.length = 0;
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

  it("leaves a level's price off the axis when it asks to (a grid's many levels)", () => {
    render(
      chart([
        { key: 'level-3', price: 97, title: '', tone: 'buy', axisLabel: false },
        { key: 'upper', price: 110, title: 'Upper', tone: 'neutral' },
      ]),
    );
    expect(drawn.lines.map((l) => l.options.axisLabelVisible)).toEqual([false, true]);
  });

  it("widens the candles' price range to the levels kept in view, and only to those", () => {
    const candlesRange = { priceRange: { minValue: 99, maxValue: 101 }, margins: { above: 5, below: 5 } };
    const levels: ChartLevel[] = [
      { key: 'lower', price: 95, title: 'Lower', tone: 'neutral', keepInView: true },
      { key: 'upper', price: 130, title: 'Upper', tone: 'neutral', keepInView: true },
      { key: 'stopLoss', price: 50, title: 'Stop-loss', tone: 'stop' },
    ];
    expect(widenToLevels(candlesRange, levels)).toEqual({
      priceRange: { minValue: 95, maxValue: 130 },
      margins: { above: 5, below: 5 },
    });
    // Inside the candles' range, or none kept in view: the candles' range as the library worked it out.
    const inside: ChartLevel[] = [
      { key: 'upper', price: 100.5, title: 'Upper', tone: 'neutral', keepInView: true },
    ];
    expect(widenToLevels(candlesRange, inside)?.priceRange).toEqual({ minValue: 99, maxValue: 101 });
    expect(widenToLevels(candlesRange, levels.slice(2))).toBe(candlesRange);
    expect(widenToLevels(null, levels)).toBeNull();
  });

  it('finds the candle a time falls in', () => {
    expect(candleOf(candles, T0 + MIN15 + 1)).toBe(T0 + MIN15);
    expect(candleOf(candles, T0 + 10 * MIN15)).toBe(T0 + 3 * MIN15);
    expect(candleOf(candles, T0 - 1)).toBeNull();
  });
});

describe('CandleChart draggable levels', () => {
  const bounds: ChartLevel[] = [
    { key: 'lower', price: 90, title: 'Lower', tone: 'neutral' },
    { key: 'upper', price: 110, title: 'Upper', tone: 'neutral' },
    { key: 'level-1', price: 100, title: '', tone: 'buy' },
  ];

  function dragChart(onLevelDrag: (key: string, price: number) => void) {
    const { container } = render(
      <CandleChart
        symbol="BTCUSDT"
        market="spot"
        seriesKey="k"
        candles={candles}
        livePrice={undefined}
        levels={bounds}
        draggableLevels={['lower', 'upper']}
        onLevelDrag={onLevelDrag}
      />,
    );
    return container.firstElementChild as HTMLElement;
  }

  it('picks up a draggable line within a few pixels, reports the price under the pointer, and holds the chart still', () => {
    const onDrag = vi.fn();
    const el = dragChart(onDrag);
    // Upper (110) is drawn at y = 90; a press at 94 is 4 px from it.
    fireEvent.pointerDown(el, { clientY: 94, pointerId: 1 });
    expect(drawn.chartOptions.at(-1)).toEqual({ handleScroll: false, handleScale: false });
    // The axis holds still while the line moves, and scales again (to the bounds kept in view) once let go.
    expect(drawn.axisOptions).toEqual([{ autoScale: false }]);
    fireEvent.pointerMove(el, { clientY: 80, pointerId: 1 });
    fireEvent.pointerMove(el, { clientY: 75, pointerId: 1 });
    fireEvent.pointerUp(el, { clientY: 75, pointerId: 1 });
    expect(onDrag.mock.calls).toEqual([
      ['upper', 120],
      ['upper', 125],
    ]);
    expect(drawn.chartOptions.at(-1)).toEqual({ handleScroll: true, handleScale: true });
    expect(drawn.axisOptions).toEqual([{ autoScale: false }, { autoScale: true }]);
    // After the release a move drags nothing.
    fireEvent.pointerMove(el, { clientY: 60, pointerId: 1 });
    expect(onDrag).toHaveBeenCalledTimes(2);
  });

  it('leaves a line that is not draggable, and a press away from every line, to the chart', () => {
    const onDrag = vi.fn();
    const el = dragChart(onDrag);
    // level-1 (100) is at y = 100: drawn, but not draggable.
    fireEvent.pointerDown(el, { clientY: 100, pointerId: 1 });
    fireEvent.pointerMove(el, { clientY: 105, pointerId: 1 });
    // 10 px from lower (90, at y = 110): too far.
    fireEvent.pointerDown(el, { clientY: 120, pointerId: 1 });
    fireEvent.pointerMove(el, { clientY: 125, pointerId: 1 });
    expect(onDrag).not.toHaveBeenCalled();
    expect(drawn.chartOptions).not.toContainEqual({ handleScroll: false, handleScale: false });
  });
});
