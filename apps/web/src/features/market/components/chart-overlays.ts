import {
  type AutoscaleInfo,
  createSeriesMarkers,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  LineStyle,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { type RefObject, useEffect, useRef } from 'react';
import { type ChartColors, chartColors } from '../../../lib/chart-theme';
import type { Theme } from '../../../lib/theme';
import type { ChartCandle } from '../api/market-data';

/**
 * What a level stands for: it picks the line's colour from the theme, so lines follow dark and light. A bot's
 * next buy and take-profits are `buy` and `sell`; a grid's resting orders are `bid` and `ask`, green and red as
 * the order tables colour their sides.
 */
export type LevelTone = 'buy' | 'sell' | 'bid' | 'ask' | 'warn' | 'stop' | 'neutral';

/** A horizontal price line with its name on it, e.g. a bot's next buy or its stoploss. */
export interface ChartLevel {
  /** Stable across refreshes: the line is moved, not redrawn, while its key stays. */
  key: string;
  price: number;
  title: string;
  tone: LevelTone;
  /** Its price on the price axis (default true); a grid's many levels leave the axis readable without. */
  axisLabel?: boolean;
  /** The price axis widens to show it even when the candles stay far from it (a grid's bounds). */
  keepInView?: boolean;
}

/**
 * The candles' own price range widened to the levels kept in view: the library scales the axis to the candles
 * alone, which left a grid's upper levels and its upper bound off the chart.
 */
export function widenToLevels(
  candles: AutoscaleInfo | null,
  levels: readonly ChartLevel[],
): AutoscaleInfo | null {
  const kept = levels.filter((level) => level.keepInView).map((level) => level.price);
  if (kept.length === 0 || !candles?.priceRange) return candles;
  const { minValue, maxValue } = candles.priceRange;
  return {
    ...candles,
    priceRange: { minValue: Math.min(minValue, ...kept), maxValue: Math.max(maxValue, ...kept) },
  };
}

/** A trade drawn on the candle it happened in, at its price: buys green, sells red, as the order book colours them. */
export interface ChartTrade {
  timeMs: number;
  price: number;
  side: 'buy' | 'sell';
  text: string;
}

/** Tones of orders and order-like levels, drawn dashed; bounds and triggers are solid. */
const ORDER_TONES: ReadonlySet<LevelTone> = new Set(['buy', 'sell', 'bid', 'ask']);

export function toneColor(colors: ChartColors, tone: LevelTone): string {
  const byTone: Record<LevelTone, string> = {
    buy: colors.primary,
    sell: colors.up,
    bid: colors.up,
    ask: colors.down,
    warn: colors.warn,
    stop: colors.down,
    neutral: colors.text,
  };
  return byTone[tone];
}

/**
 * The open time of the candle a trade falls in, or null when it is older than the loaded candles: the
 * library places markers on bars, and one between two bars would be drawn on neither.
 */
export function candleOf(candles: readonly ChartCandle[], timeMs: number): number | null {
  let found: number | null = null;
  for (const candle of candles) {
    if (candle.openTimeMs > timeMs) break;
    found = candle.openTimeMs;
  }
  return found;
}

/**
 * Price lines and trade markers over a candle series. Nothing is created while neither is given, so a chart
 * without a bot on it uses the library as before.
 */
export function useChartOverlays(
  seriesRef: RefObject<ISeriesApi<'Candlestick'> | null>,
  toChartTime: (ms: number) => UTCTimestamp,
  theme: Theme,
  candles: ChartCandle[] | undefined,
  levels: readonly ChartLevel[] | undefined,
  trades: readonly ChartTrade[] | undefined,
): void {
  const linesRef = useRef(new Map<string, IPriceLine>());
  const markersRef = useRef<ISeriesMarkersPluginApi<Time> | null>(null);
  const keptInView = useRef(false);

  useEffect(() => {
    const series = seriesRef.current;
    if (!series || !levels) return;
    const colors = chartColors(theme);
    const lines = linesRef.current;
    const wanted = new Set(levels.map((level) => level.key));
    for (const [key, line] of lines) {
      if (wanted.has(key)) continue;
      series.removePriceLine(line);
      lines.delete(key);
    }
    for (const level of levels) {
      const options = {
        price: level.price,
        title: level.title,
        color: toneColor(colors, level.tone),
        lineWidth: 1 as const,
        lineStyle: ORDER_TONES.has(level.tone) ? LineStyle.Dashed : LineStyle.Solid,
        axisLabelVisible: level.axisLabel !== false,
      };
      const line = lines.get(level.key);
      if (line) line.applyOptions(options);
      else lines.set(level.key, series.createPriceLine(options));
    }
    // Price lines take no part in the axis's scale: the levels kept in view widen it here.
    const keep = levels.some((level) => level.keepInView);
    if (keep || keptInView.current) {
      keptInView.current = keep;
      series.applyOptions({
        autoscaleInfoProvider: (candlesRange: () => AutoscaleInfo | null) =>
          widenToLevels(candlesRange(), levels),
      });
    }
  }, [seriesRef, theme, levels]);

  useEffect(() => {
    const series = seriesRef.current;
    if (!series || !trades || !candles) return;
    const colors = chartColors(theme);
    // The library wants markers in time order; the order book lists the newest first.
    const sorted = [...trades].sort((a, b) => a.timeMs - b.timeMs);
    const markers: SeriesMarker<Time>[] = [];
    for (const trade of sorted) {
      const at = candleOf(candles, trade.timeMs);
      if (at === null) continue;
      const buy = trade.side === 'buy';
      markers.push({
        time: toChartTime(at),
        position: buy ? 'atPriceBottom' : 'atPriceTop',
        price: trade.price,
        shape: buy ? 'arrowUp' : 'arrowDown',
        color: buy ? colors.up : colors.down,
        text: trade.text,
      });
    }
    if (!markersRef.current) markersRef.current = createSeriesMarkers(series, markers);
    else markersRef.current.setMarkers(markers);
  }, [seriesRef, toChartTime, theme, candles, trades]);

  // The chart (and with it every line and marker) goes when the component unmounts.
  useEffect(
    () => () => {
      linesRef.current.clear();
      markersRef.current = null;
    },
    [],
  );
}

/** How near (px) to a draggable line a press picks it up. */
const GRAB_PX = 6;

/**
 * Lines a pointer drags up and down (a start form's lower and upper): a press within a few pixels of one picks it
 * up, the chart stops panning while it moves, and each move reports the price under the pointer. Pointer events
 * in the capture phase reach this before the chart's own handlers.
 */
export function useLevelDrag(
  containerRef: RefObject<HTMLDivElement | null>,
  chartRef: RefObject<IChartApi | null>,
  seriesRef: RefObject<ISeriesApi<'Candlestick'> | null>,
  levels: readonly ChartLevel[] | undefined,
  draggable: readonly string[] | undefined,
  onDrag: ((key: string, price: number) => void) | undefined,
): void {
  const latest = useRef({ levels, onDrag });
  latest.current = { levels, onDrag };
  const keys = draggable?.join('\n') ?? '';

  useEffect(() => {
    const el = containerRef.current;
    if (!el || keys === '') return;
    const grabbable = new Set(keys.split('\n'));
    let dragging: string | null = null;
    const yOf = (e: PointerEvent) => e.clientY - el.getBoundingClientRect().top;
    const hit = (y: number): string | null => {
      const series = seriesRef.current;
      if (!series) return null;
      for (const level of latest.current.levels ?? []) {
        if (!grabbable.has(level.key)) continue;
        const at = series.priceToCoordinate(level.price);
        if (at !== null && Math.abs(at - y) <= GRAB_PX) return level.key;
      }
      return null;
    };
    const down = (e: PointerEvent) => {
      const key = hit(yOf(e));
      if (!key) return;
      dragging = key;
      chartRef.current?.applyOptions({ handleScroll: false, handleScale: false });
      // The axis holds still under the pointer while the line moves: a bound kept in view would otherwise
      // rescale it at each move. It widens to the line's new place when the line is let go.
      seriesRef.current?.priceScale().applyOptions({ autoScale: false });
      el.setPointerCapture?.(e.pointerId);
      e.preventDefault();
      e.stopPropagation();
    };
    const move = (e: PointerEvent) => {
      const y = yOf(e);
      if (!dragging) {
        el.style.cursor = hit(y) ? 'ns-resize' : '';
        return;
      }
      const price = seriesRef.current?.coordinateToPrice(y);
      if (price !== null && price !== undefined) latest.current.onDrag?.(dragging, price);
    };
    const up = (e: PointerEvent) => {
      if (!dragging) return;
      dragging = null;
      chartRef.current?.applyOptions({ handleScroll: true, handleScale: true });
      seriesRef.current?.priceScale().applyOptions({ autoScale: true });
      el.releasePointerCapture?.(e.pointerId);
    };
    el.addEventListener('pointerdown', down, { capture: true });
    el.addEventListener('pointermove', move, { capture: true });
    el.addEventListener('pointerup', up, { capture: true });
    el.addEventListener('pointercancel', up, { capture: true });
    return () => {
      el.removeEventListener('pointerdown', down, { capture: true });
      el.removeEventListener('pointermove', move, { capture: true });
      el.removeEventListener('pointerup', up, { capture: true });
      el.removeEventListener('pointercancel', up, { capture: true });
      el.style.cursor = '';
    };
  }, [containerRef, chartRef, seriesRef, keys]);
}
