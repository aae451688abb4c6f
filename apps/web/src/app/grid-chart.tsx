import { Spinner } from '../components/ui/spinner';
import type { GridChartProps, RenderGridChart } from '../features/grid/lib/grid-chart';
import { useCandles } from '../features/market/api/market-data';
import { CandleChart } from '../features/market/components/candle-chart';

/** Fifteen-minute candles, as on the bot pages: about three days loaded, a grid's levels apart. */
const INTERVAL = '15m';

/** The grid pages' chart: the Market Overview's candles of the pair with the grid's lines (lower and upper draggable). */
export const gridChart: RenderGridChart = (props) => <GridCandles {...props} />;

function GridCandles({ symbol, category, levels, draggable, onDrag, livePrice }: GridChartProps) {
  const candles = useCandles(symbol, INTERVAL, category);
  return (
    <div className="relative">
      <CandleChart
        symbol={symbol}
        market={category}
        seriesKey={`${category}:${symbol}:${INTERVAL}`}
        candles={candles.data}
        livePrice={livePrice}
        levels={levels}
        {...(draggable ? { draggableLevels: draggable } : {})}
        {...(onDrag ? { onLevelDrag: onDrag } : {})}
        className="h-72 w-full touch-none sm:h-96"
      />
      {candles.isPending ? (
        <div className="absolute inset-0 z-20 flex items-center justify-center bg-surface/60">
          <Spinner className="size-7 text-primary" label="Loading chart" />
        </div>
      ) : null}
      {candles.isError ? (
        <p role="alert" className="absolute inset-x-0 top-1/3 z-20 px-6 text-center text-sm text-muted">
          Could not load the candles. The prices in the form still apply.
        </p>
      ) : null}
    </div>
  );
}
