import type { GridOrderView } from '@gridbot/shared';

/** What a line stands for; the chart picks its colour from the theme (bids and asks as the order tables show them). */
export type GridLineTone = 'bid' | 'ask' | 'warn' | 'stop' | 'neutral';

/** A horizontal line on the price chart, structurally the market chart's level. */
export interface GridChartLevel {
  key: string;
  price: number;
  title: string;
  tone: GridLineTone;
  /** Its price on the price axis (default true): off for the many levels and orders, on for bounds and stops. */
  axisLabel?: boolean;
  /** The price axis widens to show it (a running grid's bounds, so that every level is on the chart). */
  keepInView?: boolean;
}

/** The candles of the pair with the grid's lines on them; app/ supplies it (the market chart). */
export interface GridChartProps {
  symbol: string;
  category: 'spot' | 'future';
  levels: readonly GridChartLevel[];
  /** Keys of the lines a pointer may drag up and down (the start form's lower and upper). */
  draggable?: readonly string[];
  /** A dragged line's new price, as the pointer moves. */
  onDrag?: (key: string, price: number) => void;
  /** The last price, for the newest candle. */
  livePrice?: number;
}

export type RenderGridChart = (props: GridChartProps) => React.ReactNode;

/**
 * The start form's lines: lower and upper (draggable, and kept in view: a bound typed or suggested far from the
 * candles is still on the chart to drag), each level with the order it would get at the price (buys below,
 * sells above, the one nearest the price empty), and the stops and trigger when set.
 */
export function startFormLevels(input: {
  lower: number | null;
  upper: number | null;
  levels: readonly number[] | null;
  nearest: number | null;
  stopLoss: number | null;
  takeProfit: number | null;
  trigger: number | null;
}): GridChartLevel[] {
  const out: GridChartLevel[] = [];
  const levels = input.levels ?? [];
  levels.forEach((price, k) => {
    if (k === 0 || k === levels.length - 1 || k === input.nearest) return;
    const buy = input.nearest !== null && k < input.nearest;
    out.push({ key: `level-${k}`, price, title: '', tone: buy ? 'bid' : 'ask', axisLabel: false });
  });
  if (input.lower !== null)
    out.push({ key: 'lower', price: input.lower, title: 'Lower', tone: 'neutral', keepInView: true });
  if (input.upper !== null)
    out.push({ key: 'upper', price: input.upper, title: 'Upper', tone: 'neutral', keepInView: true });
  if (input.stopLoss !== null)
    out.push({ key: 'stopLoss', price: input.stopLoss, title: 'Stop-loss', tone: 'stop' });
  if (input.takeProfit !== null)
    out.push({ key: 'takeProfit', price: input.takeProfit, title: 'Take-profit', tone: 'warn' });
  if (input.trigger !== null)
    out.push({ key: 'trigger', price: input.trigger, title: 'Trigger', tone: 'warn' });
  return out;
}

/** A running grid's lines: its resting orders (buys and sells), its bounds and stops. */
export function runningGridLevels(bot: {
  levels: readonly number[];
  orders: readonly GridOrderView[];
  strategy: { stopLoss?: number | null; takeProfit?: number | null };
}): GridChartLevel[] {
  const out: GridChartLevel[] = bot.orders.map((o) => ({
    key: `order-${o.level}`,
    price: o.price,
    title: o.side === 'buy' ? 'Buy' : 'Sell',
    tone: o.side === 'buy' ? 'bid' : 'ask',
    axisLabel: false,
  }));
  const lower = bot.levels[0];
  const upper = bot.levels[bot.levels.length - 1];
  if (lower !== undefined)
    out.push({ key: 'lower', price: lower, title: 'Lower', tone: 'neutral', keepInView: true });
  if (upper !== undefined)
    out.push({ key: 'upper', price: upper, title: 'Upper', tone: 'neutral', keepInView: true });
  if (bot.strategy.stopLoss != null)
    out.push({ key: 'stopLoss', price: bot.strategy.stopLoss, title: 'Stop-loss', tone: 'stop' });
  if (bot.strategy.takeProfit != null)
    out.push({ key: 'takeProfit', price: bot.strategy.takeProfit, title: 'Take-profit', tone: 'warn' });
  return out;
}
