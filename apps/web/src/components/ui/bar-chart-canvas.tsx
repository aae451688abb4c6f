import {
  CrosshairMode,
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { chartColors, chartThemeOptions } from '../../lib/chart-theme';
import { useTheme } from '../../lib/theme';
import type { BarChartProps } from './bar-chart';

/** The days lightweight-charts takes as they are (a business day); anything else would make it throw. */
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The canvas of BarChart (loaded on demand): a histogram series, one bar per day, fitted to its box. */
export default function BarChartCanvas({ bars, height, color, formatValue }: BarChartProps) {
  const theme = useTheme();
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ISeriesApi<'Histogram'> | null>(null);
  const formatRef = useRef(formatValue);
  formatRef.current = formatValue;

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, {
      autoSize: true,
      localization: { priceFormatter: (value: number) => formatRef.current(value) },
      crosshair: { mode: CrosshairMode.Magnet },
      // A summary, not a trading chart: the page scrolls over it and every day stays in view.
      handleScroll: false,
      handleScale: false,
      timeScale: { fixLeftEdge: true, fixRightEdge: true },
      // Days are few and far apart: only the value lines help read a bar.
      grid: { vertLines: { visible: false } },
    });
    seriesRef.current = chart.addSeries(HistogramSeries, { priceLineVisible: false, base: 0 });
    chartRef.current = chart;
    return () => {
      chart.remove();
      chartRef.current = null;
      seriesRef.current = null;
    };
  }, []);

  // The callers rebuild their bars on every render: redraw only when a day or a value changed.
  const signature = bars.map(([day, value]) => `${day}=${value}`).join(',');
  const barsRef = useRef(bars);
  barsRef.current = bars;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the signature stands for the bars
  useEffect(() => {
    const colors = chartColors(theme);
    chartRef.current?.applyOptions(chartThemeOptions(colors));
    seriesRef.current?.setData(
      barsRef.current
        .filter(([day]) => DAY.test(day))
        .map(([day, value]) => ({
          time: day,
          value,
          color: color ?? (value >= 0 ? colors.up : colors.down),
        })),
    );
    chartRef.current?.timeScale().fitContent();
  }, [theme, signature, color]);

  return <div ref={containerRef} style={{ height }} />;
}
