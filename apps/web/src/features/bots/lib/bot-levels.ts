import type { BotSummary, OrderBookRow } from '@gridbot/shared';
import { toNumber } from './bot-format';

/** What a line stands for; the chart and the legend colour it from the theme (the chart's `LevelTone`). */
export type BotLevelTone = 'buy' | 'sell' | 'warn' | 'stop' | 'neutral';

/** A named price line of the bot's chart (the shape the market chart's `levels` draw). */
export interface BotChartLevel {
  /** Stable across refreshes, so the chart moves a line instead of drawing it again. */
  key: string;
  price: number;
  title: string;
  tone: BotLevelTone;
  /** false: the line without its price tag on the axis. */
  axisLabel?: boolean;
}

/** One of the bot's fills as a chart marker (the shape the market chart's `trades` draw). */
export interface BotChartTrade {
  timeMs: number;
  price: number;
  side: 'buy' | 'sell';
  text: string;
}

/**
 * The lines the bot's price chart draws, named for a trader. The prices come worked out from the engine's state
 * (`levels` of the summary, docs/trading-rules.md §2.2, §2.3); the page only names and colours them. Before a
 * server sends `levels`, the summary's own price triggers still show.
 */
export function botChartLevels(bot: BotSummary): BotChartLevel[] {
  const levels = bot.levels;
  const lines: BotChartLevel[] = [];
  if (levels?.nextBuy) {
    lines.push({
      key: 'next-buy',
      price: levels.nextBuy.price,
      title: `Next buy (grid ${levels.nextBuy.grid})`,
      tone: 'buy',
    });
  }
  for (const tp of levels?.takeProfits ?? []) {
    lines.push({
      key: tp.grid === null ? 'tp' : `tp-${tp.grid}`,
      price: tp.price,
      // An armed lot's trailing sell is under way: it sells on the drop, not at this line.
      title: `${tp.grid === null ? 'Take profit' : `TP grid ${tp.grid}`}${tp.armed ? ' (trailing)' : ''}`,
      tone: 'sell',
    });
  }
  const triggers = [
    ['pause', 'Pause', levels ? levels.pause : bot.sell_all_and_pause_at_price, 'warn'],
    ['restart', 'Restart', levels ? levels.restart : bot.restart_at_price, 'neutral'],
    ['stoploss', 'Stoploss', levels ? levels.stoploss : bot.stoploss_and_stopbot_at_price, 'stop'],
  ] as const;
  // A stopped bot's triggers no longer act, and the one that stopped it sits at the last price: its tag on the
  // axis would cover the price's own tag.
  const axisLabel = bot.status === 'Stopped' ? false : undefined;
  for (const [key, title, value, tone] of triggers) {
    const price = toNumber(value);
    // 0 is how an unset trigger reads on older bots (formatLimit shows it as 'Not set').
    if (price !== null && price > 0)
      lines.push({ key, price, title, tone, ...(axisLabel === false && { axisLabel }) });
  }
  return lines;
}

/** The page's orders as chart markers: buys and sells at their fill price ("B2": grid 2 bought; "S2": sold). */
export function botChartTrades(orders: readonly OrderBookRow[] | undefined): BotChartTrade[] {
  const trades: BotChartTrade[] = [];
  for (const order of orders ?? []) {
    if (order.type === 'FUNDING') continue;
    const timeMs = Date.parse(order.date);
    const price = toNumber(order.price);
    if (!Number.isFinite(timeMs) || price === null) continue;
    const buy = order.type === 'BUY';
    trades.push({ timeMs, price, side: buy ? 'buy' : 'sell', text: `${buy ? 'B' : 'S'}${order.grid}` });
  }
  return trades;
}
