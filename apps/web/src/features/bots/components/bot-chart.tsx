import type { BotSummary, OrderBookRow } from '@gridbot/shared';
import { type ReactNode, useMemo } from 'react';
import { Card, CardHeader } from '../../../components/ui/card';
import { formatPrice } from '../../../lib/format';
import {
  type BotChartLevel,
  type BotChartTrade,
  type BotLevelTone,
  botChartLevels,
  botChartTrades,
} from '../lib/bot-levels';

/** The candles of the bot's pair with its lines and trades on them; app/ supplies it (the market chart). */
export type RenderBotCandles = (
  bot: BotSummary,
  levels: readonly BotChartLevel[],
  trades: readonly BotChartTrade[],
) => ReactNode;

/** The legend's swatch in the same theme token as the line on the chart. */
const SWATCH: Record<BotLevelTone, string> = {
  buy: 'bg-primary',
  sell: 'bg-up',
  warn: 'bg-warn',
  stop: 'bg-down',
  neutral: 'bg-muted',
};

/**
 * The pair's candles with the bot on them: its buys and sells (the order book's page on screen), the next
 * buy, each take-profit and the price triggers that are set. Redrawn with the page's data on each refresh.
 */
export function BotChart({
  bot,
  orders,
  renderCandles,
}: {
  bot: BotSummary;
  orders: readonly OrderBookRow[] | undefined;
  renderCandles?: RenderBotCandles;
}) {
  const levels = useMemo(() => botChartLevels(bot), [bot]);
  const trades = useMemo(() => botChartTrades(orders), [orders]);

  return (
    <Card>
      <CardHeader
        title="Price Chart"
        description={`${bot.name} with this bot's trades and the prices it acts at.`}
      />
      {renderCandles ? renderCandles(bot, levels, trades) : null}
      {/* The lines' names again in text: on a phone the chart's own labels can sit on top of each other. */}
      <ul
        aria-label="Bot levels"
        className="flex flex-wrap gap-x-4 gap-y-1.5 border-t border-line px-4 py-3 text-xs"
      >
        {levels.length === 0 ? (
          <li className="text-muted">No buy or sell level is waiting on a price.</li>
        ) : null}
        {levels.map((level) => (
          <li key={level.key} className="inline-flex items-center gap-1.5">
            <span aria-hidden="true" className={`inline-block h-0.5 w-3 rounded ${SWATCH[level.tone]}`} />
            <span className="text-muted">{level.title}</span>
            <span className="font-semibold text-fg tabular-nums">{formatPrice(level.price)}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
