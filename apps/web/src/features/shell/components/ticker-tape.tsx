import { clsx } from 'clsx';
import { type CSSProperties, memo, useEffect, useState } from 'react';
import { whenIdle } from '../../../lib/deferred-module';
import { formatChangePct, formatPair, formatPrice } from '../../../lib/format';
import { type Ticker, type TickerSource, useTickers } from '../api/tickers';

/** The tape says honestly where its prices come from. */
const SOURCE_LABELS: Record<string, { label: string; title: string; live: boolean }> = {
  live: { label: 'Live', title: 'Live exchange prices', live: true },
  binance: { label: 'Live', title: 'Live Binance prices', live: true },
  sim: { label: 'Simulated', title: 'Simulated market prices (paper trading)', live: false },
  replay: { label: 'Replay', title: 'Prices replayed from historical candles', live: false },
  static: { label: 'Static', title: 'Last known prices; live market data is not connected', live: false },
};

function sourceLabel(source: TickerSource | undefined) {
  return (source && SOURCE_LABELS[source]) || { label: 'Prices', title: 'Market prices', live: false };
}

/** Seconds per item: slow enough to read a price as it passes. */
const SECONDS_PER_ITEM = 3.2;

function TickerItem({ ticker }: { ticker: Ticker }) {
  const direction = ticker.changePct > 0 ? 'up' : ticker.changePct < 0 ? 'down' : 'flat';
  return (
    <li className="flex shrink-0 items-center gap-2 whitespace-nowrap px-4 tabular-nums">
      <span className="font-semibold text-fg">{formatPair(ticker.symbol)}</span>
      <span className="text-fg/85">{formatPrice(ticker.price)}</span>
      <span
        className={clsx(
          'font-medium',
          direction === 'up' && 'text-up',
          direction === 'down' && 'text-down',
          direction === 'flat' && 'text-muted',
        )}
      >
        {direction === 'up' ? '▲' : direction === 'down' ? '▼' : ''} {formatChangePct(ticker.changePct)}
      </span>
    </li>
  );
}

/**
 * Our own ticker tape (no third-party widget): the 22 pairs with price and 24 h change, scrolling as a CSS
 * marquee that pauses under the pointer. Colours come from the theme tokens, so it follows light and dark.
 *
 * The tape first stands still with one copy of the list; the second copy, which makes the loop seamless, and the
 * scrolling come once the page has settled (`whenIdle`). The copy is about a fifth of a dashboard's elements, and
 * building it while the page's own data arrive made the busiest task of a phone's load longer
 * (docs/benchmarks.md, Web). One copy is 22 prices wide, so it fills any screen while it waits.
 */
export const TickerTape = memo(function TickerTape({ className }: { className?: string }) {
  const { data, isError } = useTickers();
  const [looping, setLooping] = useState(false);
  useEffect(() => whenIdle(() => setLooping(true)), []);
  const tickers = data?.tickers ?? [];
  const source = sourceLabel(data?.source);
  const style = {
    '--marquee-duration': `${Math.max(20, tickers.length * SECONDS_PER_ITEM)}s`,
  } as CSSProperties;

  return (
    <section
      aria-label="Market prices"
      className={clsx('flex h-9 items-stretch border-b border-line bg-surface text-xs', className)}
    >
      <div
        className="flex shrink-0 items-center gap-1.5 border-r border-line px-3 font-semibold uppercase tracking-wide text-muted"
        title={source.title}
      >
        <span className={clsx('size-1.5 rounded-full', source.live ? 'animate-pulse bg-up' : 'bg-warn')} />
        {source.label}
      </div>
      <div className="group relative min-w-0 flex-1 overflow-hidden mask-x-from-95% mask-x-to-100%">
        {tickers.length > 0 ? (
          <div
            className={clsx(
              'flex h-full w-max items-center',
              looping && 'animate-marquee group-hover:[animation-play-state:paused]',
            )}
            style={style}
          >
            <ul className="flex shrink-0 items-center">
              {tickers.map((ticker) => (
                <TickerItem key={ticker.symbol} ticker={ticker} />
              ))}
            </ul>
            {/* The second copy makes the loop seamless; readers get the list once. */}
            {looping && (
              <ul className="flex shrink-0 items-center" aria-hidden="true">
                {tickers.map((ticker) => (
                  <TickerItem key={ticker.symbol} ticker={ticker} />
                ))}
              </ul>
            )}
          </div>
        ) : (
          <p className="flex h-full items-center px-4 text-muted">
            {isError ? 'Prices are unavailable right now.' : 'Loading prices…'}
          </p>
        )}
      </div>
    </section>
  );
});
