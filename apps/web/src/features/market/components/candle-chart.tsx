import { decimalsOf, findMarketRules } from '@gridbot/shared';
import {
  type CandlestickData,
  CandlestickSeries,
  CrosshairMode,
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type MouseEventParams,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { chartColors, chartThemeOptions } from '../../../lib/chart-theme';
import { formatPrice } from '../../../lib/format';
import { useTheme } from '../../../lib/theme';
import { type ChartCandle, type ChartMarket, VISIBLE_BARS } from '../api/market-data';
import { type ChartLevel, type ChartTrade, useChartOverlays, useLevelDrag } from './chart-overlays';

export interface HoveredBar {
  open: number;
  high: number;
  low: number;
  close: number;
}

interface CandleChartProps {
  symbol: string;
  market: ChartMarket;
  /** Identifies the series (pair, market, interval): a new key redraws from scratch and refits. */
  seriesKey: string;
  candles: ChartCandle[] | undefined;
  /** The last traded price; it moves the newest candle between two candle loads. */
  livePrice: number | undefined;
  onHover?: (bar: HoveredBar | null) => void;
  className?: string;
  /** Price lines drawn across the chart (a bot's next buy, take-profits, stops). */
  levels?: readonly ChartLevel[];
  /** Trades marked on the candles they happened in. */
  trades?: readonly ChartTrade[];
  /** Keys of the levels a pointer may drag (a start form's bounds); `onLevelDrag` hears the new price. */
  draggableLevels?: readonly string[];
  onLevelDrag?: (key: string, price: number) => void;
}

/**
 * lightweight-charts draws in UTC; shifting each time by the browser's offset shows local time on the
 * axis, as the library's docs recommend.
 */
function toChartTime(ms: number): UTCTimestamp {
  return (Math.floor(ms / 1000) - new Date(ms).getTimezoneOffset() * 60) as UTCTimestamp;
}

/** Bars on screen after a (re)load: readable candles rather than 300 slivers. */

/** Candlesticks with volume underneath. Follows the theme and its container's size live. */
export function CandleChart({
  symbol,
  market,
  seriesKey,
  candles,
  livePrice,
  onHover,
  className,
  levels,
  trades,
  draggableLevels,
  onLevelDrag,
}: CandleChartProps) {
  const theme = useTheme();
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const candleSeriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const volumeSeriesRef = useRef<ISeriesApi<'Histogram'> | null>(null);
  const lastBarRef = useRef<CandlestickData<UTCTimestamp> | null>(null);
  const drawnKeyRef = useRef<string | null>(null);
  const onHoverRef = useRef(onHover);
  onHoverRef.current = onHover;

  // One chart per mount; autoSize follows the container through a ResizeObserver.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, {
      autoSize: true,
      // Grouped like every other price in the app (97,123.45), not the library's bare 97123.45.
      localization: { priceFormatter: formatPrice },
      crosshair: { mode: CrosshairMode.Normal },
      timeScale: { timeVisible: true, secondsVisible: false, rightOffset: 4 },
      rightPriceScale: { scaleMargins: { top: 0.08, bottom: 0.24 } },
      handleScale: { axisPressedMouseMove: { time: true, price: true } },
    });
    const candleSeries = chart.addSeries(CandlestickSeries, { borderVisible: false });
    const volumeSeries = chart.addSeries(HistogramSeries, {
      priceScaleId: 'volume',
      priceFormat: { type: 'volume' },
      lastValueVisible: false,
      priceLineVisible: false,
    });
    chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });

    const onMove = (param: MouseEventParams) => {
      const bar = param.seriesData.get(candleSeries) as CandlestickData | undefined;
      onHoverRef.current?.(bar && 'open' in bar ? bar : null);
    };
    chart.subscribeCrosshairMove(onMove);

    chartRef.current = chart;
    candleSeriesRef.current = candleSeries;
    volumeSeriesRef.current = volumeSeries;
    return () => {
      chart.unsubscribeCrosshairMove(onMove);
      chart.remove();
      chartRef.current = null;
      candleSeriesRef.current = null;
      volumeSeriesRef.current = null;
      drawnKeyRef.current = null;
      lastBarRef.current = null;
    };
  }, []);

  useEffect(() => {
    const colors = chartColors(theme);
    chartRef.current?.applyOptions(chartThemeOptions(colors));
    candleSeriesRef.current?.applyOptions({
      upColor: colors.up,
      downColor: colors.down,
      wickUpColor: colors.up,
      wickDownColor: colors.down,
    });
    // Volume bars carry their own colour: redraw them in the new palette.
    const volume = volumeSeriesRef.current;
    if (volume && candles) volume.setData(volumeData(candles, colors.upVolume, colors.downVolume));
  }, [theme, candles]);

  // The pair's tick size sets the decimals on the price axis.
  useEffect(() => {
    const tick = findMarketRules(symbol, market)?.tickSize;
    if (!tick) return;
    candleSeriesRef.current?.applyOptions({
      priceFormat: { type: 'price', precision: decimalsOf(tick), minMove: Number(tick) },
    });
  }, [symbol, market]);

  useEffect(() => {
    const chart = chartRef.current;
    const series = candleSeriesRef.current;
    if (!chart || !series || !candles || candles.length === 0) return;
    const bars = candles.map(toBar);
    const last = bars[bars.length - 1] ?? null;
    if (drawnKeyRef.current !== seriesKey) {
      series.setData(bars);
      chart.timeScale().setVisibleLogicalRange({
        from: Math.max(0, bars.length - VISIBLE_BARS),
        to: bars.length + 4,
      });
      drawnKeyRef.current = seriesKey;
    } else {
      // A refresh: update the newest bar and append new ones; the user's zoom and scroll stay.
      const from = lastBarRef.current?.time ?? 0;
      for (const bar of bars) if (bar.time >= from) series.update(bar);
    }
    lastBarRef.current = last;
  }, [candles, seriesKey]);

  useEffect(() => {
    const series = candleSeriesRef.current;
    const last = lastBarRef.current;
    if (!series || !last || livePrice === undefined || !Number.isFinite(livePrice)) return;
    const bar = {
      ...last,
      close: livePrice,
      high: Math.max(last.high, livePrice),
      low: Math.min(last.low, livePrice),
    };
    series.update(bar);
    lastBarRef.current = bar;
  }, [livePrice]);

  useChartOverlays(candleSeriesRef, toChartTime, theme, candles, levels, trades);
  useLevelDrag(containerRef, chartRef, candleSeriesRef, levels, draggableLevels, onLevelDrag);

  return <div ref={containerRef} className={className} />;
}

function toBar(candle: ChartCandle): CandlestickData<UTCTimestamp> {
  return {
    time: toChartTime(candle.openTimeMs),
    open: candle.open,
    high: candle.high,
    low: candle.low,
    close: candle.close,
  };
}

function volumeData(candles: ChartCandle[], upColor: string, downColor: string) {
  return candles.map((candle) => ({
    time: toChartTime(candle.openTimeMs),
    value: candle.volume,
    color: candle.close >= candle.open ? upColor : downColor,
  }));
}
