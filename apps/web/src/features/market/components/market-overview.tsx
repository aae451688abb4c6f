import { clsx } from 'clsx';
import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { AlertIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { formatPair, formatPrice } from '../../../lib/format';
import {
  type ChartInterval,
  type ChartMarket,
  useCandles,
  useLivePrice,
  VISIBLE_BARS,
} from '../api/market-data';
import { CandleChart, type HoveredBar } from './candle-chart';

/** docs/spec/01-core-screens.md Start New Bot: the Market Overview chart opens on the 15-minute interval. */
export const DEFAULT_INTERVAL: ChartInterval = '15m';
const INTERVALS: readonly ChartInterval[] = ['1m', '5m', '15m', '1h', '4h', '1d'];
const MINUTE_MS = 60_000;
const INTERVAL_MS: Record<ChartInterval, number> = {
  '1m': MINUTE_MS,
  '5m': 5 * MINUTE_MS,
  '15m': 15 * MINUTE_MS,
  '1h': 60 * MINUTE_MS,
  '4h': 240 * MINUTE_MS,
  '1d': 1440 * MINUTE_MS,
};

/** How long the chart's candles span, in words: '30 min', '25 h', '3 d'. */
export function spanLabel(ms: number): string {
  const minutes = Math.round(ms / MINUTE_MS);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} d`;
}

interface MarketOverviewProps {
  /** e.g. 'BTCUSDT'. */
  symbol: string;
  market?: ChartMarket;
  className?: string;
}

function Ohlc({ bar }: { bar: HoveredBar }) {
  const tone = bar.close >= bar.open ? 'text-up' : 'text-down';
  return (
    <p className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs tabular-nums text-muted">
      {(['open', 'high', 'low', 'close'] as const).map((key) => (
        <span key={key}>
          {key.charAt(0).toUpperCase()} <span className={tone}>{formatPrice(bar[key])}</span>
        </span>
      ))}
    </p>
  );
}

/**
 * Market Overview card: candlesticks and volume of one pair from /api/candles, interval buttons, the live
 * price, and loading and error states. Reusable by any screen that shows a pair (Start Bot first).
 */
export function MarketOverview({ symbol, market = 'spot', className }: MarketOverviewProps) {
  const [interval, setChartInterval] = useState<ChartInterval>(DEFAULT_INTERVAL);
  const [hovered, setHovered] = useState<HoveredBar | null>(null);
  const candles = useCandles(symbol, interval, market);
  const livePrice = useLivePrice(symbol, market);
  const lastCandle = candles.data?.at(-1);
  const price = livePrice.data ?? lastCandle?.close;
  // The change and its span are those of the bars the chart shows at first (the last VISIBLE_BARS), not 24 h
  // as in the ticker tape above: the label says over how long.
  const firstCandle = candles.data?.[Math.max(0, candles.data.length - VISIBLE_BARS)];
  const firstOpen = firstCandle?.open;
  const changePct = price !== undefined && firstOpen ? ((price - firstOpen) / firstOpen) * 100 : undefined;
  const span =
    firstCandle && lastCandle
      ? spanLabel(lastCandle.openTimeMs + INTERVAL_MS[interval] - firstCandle.openTimeMs)
      : undefined;
  const shownBar = hovered ?? (lastCandle ? { ...lastCandle, close: price ?? lastCandle.close } : null);
  const failed = candles.isError && !candles.data;
  // The chart is a canvas: screen readers get the figures it shows as text instead.
  const shownCandles = candles.data?.slice(-VISIBLE_BARS) ?? [];
  const chartSummary =
    shownCandles.length > 0 && span && price !== undefined
      ? `${formatPair(symbol)}, ${interval} candles over ${span}: high ${formatPrice(
          Math.max(...shownCandles.map((c) => c.high)),
        )}, low ${formatPrice(Math.min(...shownCandles.map((c) => c.low)))}, last ${formatPrice(price)}.`
      : undefined;

  return (
    <Card className={clsx('overflow-hidden', className)}>
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-line px-4 py-3.5 sm:px-5">
        <div className="min-w-0">
          <div className="flex items-center gap-2">
            <h2 className="text-base font-semibold text-fg">Market Overview</h2>
            <Badge tone="neutral">{market === 'spot' ? 'Spot' : 'Futures'}</Badge>
          </div>
          <p className="mt-1 flex flex-wrap items-baseline gap-x-2 text-sm">
            <span className="font-semibold text-fg">{formatPair(symbol)}</span>
            <span data-testid="market-price" className="font-semibold text-fg tabular-nums">
              {price === undefined ? '—' : formatPrice(price)}
            </span>
            {changePct === undefined ? null : (
              <span data-testid="market-change" className="text-xs font-medium tabular-nums">
                <span className={changePct >= 0 ? 'text-up' : 'text-down'}>
                  {changePct >= 0 ? '+' : ''}
                  {changePct.toFixed(2)}%
                </span>
                <span className="text-muted"> over {span}</span>
              </span>
            )}
          </p>
        </div>
        <fieldset className="flex gap-0.5 rounded-lg border border-line bg-surface-2 p-0.5">
          <legend className="sr-only">Interval</legend>
          {INTERVALS.map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={value === interval}
              onClick={() => setChartInterval(value)}
              className={clsx(
                'rounded-md px-2 py-1 text-xs font-semibold tabular-nums transition-colors sm:px-2.5',
                value === interval ? 'bg-surface text-fg shadow-sm' : 'text-muted hover:text-fg',
              )}
            >
              {value}
            </button>
          ))}
        </fieldset>
      </div>
      <div className="relative">
        <div className="pointer-events-none absolute top-2 right-20 left-3 z-10 min-h-4">
          {shownBar ? <Ohlc bar={shownBar} /> : null}
        </div>
        <CandleChart
          symbol={symbol}
          market={market}
          seriesKey={`${market}:${symbol}:${interval}`}
          candles={candles.data}
          livePrice={livePrice.data}
          onHover={setHovered}
          className="h-80 w-full sm:h-[26rem]"
        />
        {chartSummary ? <p className="sr-only">{chartSummary}</p> : null}
        {candles.isPending ? (
          <div className="absolute inset-0 z-20 flex items-center justify-center bg-surface/60">
            <Spinner className="size-7 text-primary" label="Loading chart" />
          </div>
        ) : null}
        {failed ? (
          <div
            role="alert"
            className="absolute inset-0 z-20 flex flex-col items-center justify-center gap-3 bg-surface px-6 text-center"
          >
            <AlertIcon className="size-7 text-warn" />
            <p className="text-sm text-muted">Could not load the chart. {candles.error.message}</p>
            <Button variant="outline" size="sm" onClick={() => void candles.refetch()}>
              Retry
            </Button>
          </div>
        ) : null}
      </div>
    </Card>
  );
}
