import { z } from 'zod';
import { SYMBOLS } from '../markets/market-rules';
import { rangeStrategySchema } from '../strategies/range.schema';
import { botMessages as m } from './bots.messages';

/**
 * The range grid bot's API (docs/trading-rules.md §2.6): the exchanges' own Spot Grid and Futures Grid, started
 * with its parameters inline (as on Binance, Pionex and KuCoin) rather than from a saved strategy. Ours; the
 * specification's bots are Multigrid and Scalping.
 */
export const gridApiPaths = {
  /** POST {@link StartGridInput} → `{ message, botID }`. */
  start: '/api/startgrid',
  /** GET: the signed-in user's range grid bots, running first → {@link GridBotView}[]. */
  list: '/api/gridbots',
  /** POST `{ botID }` → {@link GridBotInfo}. */
  info: '/api/gridbotinfo',
  /** POST `{ botID }` → {@link GridFillView}[], newest first. */
  fills: '/api/gridfills',
  /** GET: the user's stopped range grids, newest first → `{ rows: HistoryRow[] }` (History's Grid tab). */
  history: '/api/gridhistory',
  /** POST {@link GridEditInput} → `{ message }`: the stops and trailing of a running grid. */
  edit: '/api/gridedit',
  /** POST {@link GridStopInput} → `{ message }`: cancel every order, with `sell` also sell the base / close. */
  stop: '/api/gridstop',
} as const;

/** POST /api/startgrid. Numbers may arrive as typed text (the form's fields). */
export const startGridInputSchema = z.object({
  category: z.enum(['Spot', 'Future'], { error: m.categoryRequired }),
  selectPair: z
    .string({ error: m.pairRequired })
    .trim()
    .min(1, m.pairRequired)
    .transform((v) => v.toUpperCase().replace('/', ''))
    .refine((v) => SYMBOLS.includes(v), m.pairRequired),
  amount: z.coerce
    .number({ error: m.amountNumber })
    .refine((n) => Number.isFinite(n) && n > 0, m.amountNumber),
  strategy: rangeStrategySchema,
});
export type StartGridInput = z.input<typeof startGridInputSchema>;
export type StartGridParsed = z.output<typeof startGridInputSchema>;

/** POST /api/gridedit: what a running grid lets the trader change; absent fields stay, null clears. */
export const gridEditInputSchema = z.object({
  botID: z.string().trim().min(1, m.botNotFound).max(64),
  stopLoss: z.coerce.number().positive().nullish(),
  takeProfit: z.coerce.number().positive().nullish(),
  sellOnStop: z.boolean().optional(),
  trailingUp: z.boolean().optional(),
  trailingUpLimit: z.coerce.number().positive().nullish(),
  trailingDown: z.boolean().optional(),
  trailingDownLimit: z.coerce.number().positive().nullish(),
});
export type GridEditInput = z.input<typeof gridEditInputSchema>;

/** POST /api/gridstop. */
export const gridStopInputSchema = z.object({
  botID: z.string().trim().min(1, m.botNotFound).max(64),
  sell: z.boolean().default(false),
});
export type GridStopInput = z.input<typeof gridStopInputSchema>;

/** A resting limit order of a grid, as the exchange holds it. */
export interface GridOrderView {
  level: number;
  side: 'buy' | 'sell';
  price: number;
  qty: number;
  /** The client order id it was sent with. */
  clientOrderId: string;
  reduceOnly: boolean;
}

/** One fill of a grid (the backtest CLI's row, docs/trading-rules.md §2.6). */
export interface GridFillView {
  time: string;
  side: 'buy' | 'sell';
  /** The level it filled at, or null for a market order (start, trailing, stop). */
  level: number | null;
  price: number;
  qty: number;
  quote: number;
  /** What the exchange charged, in `feeAsset` (a spot buy's commission is in the coin). */
  fee: number;
  feeAsset: string;
  /** A limit sell (or a futures closing order): the matched pair's grid profit; otherwise null. */
  pnl: number | null;
}

/** A range grid bot: the dashboard card, the running grid's page and History. */
export interface GridBotView {
  id: string;
  symbol: string;
  category: 'Spot' | 'Future';
  /** Waiting: for its trigger price. Stopping: its closing sale is out. */
  status: 'Waiting' | 'Live' | 'Stopping' | 'Stopped';
  /** stoploss | take_profit | liquidated | manual | manual_sell, or null. */
  stopReason: string | null;
  /** Why the runtime halted it (repeated exchange failures), or null. */
  haltReason: string | null;
  /** The price is outside the grid and no trailing moves it: no order can fill. */
  outOfRange: boolean;
  strategy: z.output<typeof rangeStrategySchema>;
  investment: number;
  /** The one quantity of every order. */
  qtyPerOrder: number;
  /** Every level's price, lowest first (after trailing: the current grid). */
  levels: number[];
  orders: GridOrderView[];
  gridProfit: number;
  floatingPnl: number;
  totalPnl: number;
  /** APR (%) from grid profit over the runtime. */
  gridApr: number;
  matchedTrades: number;
  trades: number;
  fees: number;
  startPrice: number;
  lastPrice: number;
  /** Spot: coin and USDT the bot holds. */
  base: number;
  quote: number;
  /**
   * Futures: the position (signed: long > 0), its entry, margin and liquidation price, and the funding it
   * received (> 0) or paid (< 0) so far, inside the total PnL (docs/trading-rules.md §2.2).
   */
  position: {
    size: number;
    entryPrice: number;
    margin: number;
    liquidationPrice: number;
    funding: number;
  } | null;
  startedAt: string;
  stoppedAt: string | null;
}

/** The running grid's page (`/api/gridbotinfo`): the grid and the exchange it trades on. */
export interface GridBotInfo extends GridBotView {
  /** Where the grid trades (Binance, Bybit, OKX or Paper), from the user's key; null when none is bound. */
  exchange: string | null;
}
