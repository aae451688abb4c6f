import {
  AreaSeries,
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  type IChartApi,
  LineSeries,
  type SeriesMarker,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { chartColors, chartThemeOptions, withAlpha } from '../../../lib/chart-theme';
import { formatPrice } from '../../../lib/format';
import { useTheme } from '../../../lib/theme';
import type { BacktestOutcomeOk } from '../lib/backtest-core';

/** UTC ms to the chart's time, shifted by the browser's offset so the axis shows local time. */
function chartTime(ms: number): UTCTimestamp {
  return (Math.floor(ms / 1000) - new Date(ms).getTimezoneOffset() * 60) as UTCTimestamp;
}

/** Points in strictly increasing time (the chart refuses two at one second: the last one wins). */
function series(points: readonly { time: number; equity: number }[]) {
  const out: { time: UTCTimestamp; value: number }[] = [];
  for (const p of points) {
    const time = chartTime(p.time);
    const last = out[out.length - 1];
    if (last && last.time >= time) last.value = p.equity;
    else out.push({ time, value: p.equity });
  }
  return out;
}

const percent = (v: number) => `${v.toFixed(1)} %`;

function useChart(
  build: (chart: IChartApi, colors: ReturnType<typeof chartColors>) => void,
  deps: unknown[],
  priceFormatter: (v: number) => string = formatPrice,
) {
  const ref = useRef<HTMLDivElement>(null);
  const theme = useTheme();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the chart is rebuilt when its data or the theme change.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const colors = chartColors(theme);
    const chart = createChart(el, {
      autoSize: true,
      localization: { priceFormatter },
      layout: { attributionLogo: false },
      timeScale: { timeVisible: true, secondsVisible: false },
      handleScroll: false,
      handleScale: false,
    });
    chart.applyOptions(chartThemeOptions(colors));
    build(chart, colors);
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [theme, ...deps]);
  return ref;
}

/** Equity of the strategy against holding the coin, in USDT. */
export function EquityChart({ result }: { result: BacktestOutcomeOk }) {
  const ref = useChart(
    (chart, colors) => {
      const hold = chart.addSeries(LineSeries, {
        color: colors.text,
        lineWidth: 2,
        lineStyle: 2,
        title: 'Hold',
        priceLineVisible: false,
      });
      hold.setData(series(result.hold));
      const equity = chart.addSeries(LineSeries, {
        color: getComputedStyle(document.documentElement).getPropertyValue('--primary').trim() || '#3b82f6',
        lineWidth: 2,
        title: 'Strategy',
        priceLineVisible: false,
      });
      equity.setData(series(result.equity));
    },
    [result],
  );
  return <div ref={ref} className="h-56 w-full" data-testid="backtest-equity-chart" />;
}

/** Percent below the highest equity so far. */
export function DrawdownChart({ result }: { result: BacktestOutcomeOk }) {
  const ref = useChart(
    (chart, colors) => {
      const area = chart.addSeries(AreaSeries, {
        lineColor: colors.down,
        topColor: withAlpha(colors.down, 0.05),
        bottomColor: withAlpha(colors.down, 0.35),
        lineWidth: 1,
        priceLineVisible: false,
      });
      area.setData(series(result.drawdown));
    },
    [result],
    percent,
  );
  return <div ref={ref} className="h-32 w-full" data-testid="backtest-drawdown-chart" />;
}

/** The pair's candles with a marker under each bar with buys and over each bar with sells. */
export function TradesChart({ result }: { result: BacktestOutcomeOk }) {
  const ref = useChart(
    (chart, colors) => {
      const candles = chart.addSeries(CandlestickSeries, {
        upColor: colors.up,
        downColor: colors.down,
        wickUpColor: colors.up,
        wickDownColor: colors.down,
        borderVisible: false,
        priceLineVisible: false,
      });
      candles.setData(
        result.bars.map((b) => ({
          time: chartTime(b.time),
          open: b.open,
          high: b.high,
          low: b.low,
          close: b.close,
        })),
      );
      const markers: SeriesMarker<UTCTimestamp>[] = [];
      for (const b of result.bars) {
        const time = chartTime(b.time);
        if (b.buys > 0) {
          markers.push({
            time,
            position: 'belowBar',
            color: colors.up,
            shape: 'arrowUp',
          });
        }
        if (b.sells > 0) {
          markers.push({
            time,
            position: 'aboveBar',
            color: colors.down,
            shape: 'arrowDown',
          });
        }
      }
      createSeriesMarkers(candles, markers);
    },
    [result],
  );
  return <div ref={ref} className="h-72 w-full" data-testid="backtest-trades-chart" />;
}
