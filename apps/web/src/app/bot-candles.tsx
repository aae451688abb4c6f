import { Spinner } from '../components/ui/spinner';
import type { RenderBotCandles } from '../features/bots/components/bot-chart';
import { useCandles } from '../features/market/api/market-data';
import { CandleChart } from '../features/market/components/candle-chart';

/** Fifteen-minute candles: about three days loaded, a day and a half on screen, so a grid's trades show apart. */
const INTERVAL = '15m';

/** The running-bot page's chart: the Market Overview's candles of the bot's pair, with the bot's lines and trades. */
export const botCandles: RenderBotCandles = (bot, levels, trades) => (
  <BotCandles
    symbol={bot.name}
    future={bot.category === 'Future'}
    live={bot.liveprice}
    levels={levels}
    trades={trades}
  />
);

function BotCandles({
  symbol,
  future,
  live,
  levels,
  trades,
}: {
  symbol: string;
  future: boolean;
  live: number;
  levels: Parameters<RenderBotCandles>[1];
  trades: Parameters<RenderBotCandles>[2];
}) {
  const market = future ? 'future' : 'spot';
  const candles = useCandles(symbol, INTERVAL, market);
  return (
    <div className="relative">
      <CandleChart
        symbol={symbol}
        market={market}
        seriesKey={`${market}:${symbol}:${INTERVAL}`}
        candles={candles.data}
        livePrice={live}
        levels={levels}
        trades={trades}
        className="h-72 w-full sm:h-96"
      />
      {candles.isPending ? (
        <div className="absolute inset-0 z-20 flex items-center justify-center bg-surface/60">
          <Spinner className="size-7 text-primary" label="Loading chart" />
        </div>
      ) : null}
      {candles.isError ? (
        <p role="alert" className="absolute inset-x-0 top-1/3 z-20 px-6 text-center text-sm text-muted">
          Could not load the candles. The levels below still apply.
        </p>
      ) : null}
    </div>
  );
}
