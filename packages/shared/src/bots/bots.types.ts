/**
 * Response shapes of the bot API (docs/spec/01-core-screens.md §3 Bot, History row, Dashboard totals; docs/spec/02-bots-wallet-account.md §3). Field names
 * are the spec's. Money and prices are numbers rounded for display (USDT to 8 decimals); the exact values
 * live in the database as numeric.
 */

/** A running bot's summary: the dashboard cards (`/api/botstatus`) and the bot pages (`/api/botinfo`). */
export interface BotSummary {
  id: string;
  /** Pair such as BTCUSDT. */
  name: string;
  botType: 'multigrid' | 'scalping';
  category: 'Spot' | 'Future';
  strategy_name: string;
  /** Stopping: stopped with its final sell still out; Stopped once that sell is filled and booked. */
  status: 'Live' | 'Pause' | 'Stopping' | 'Stopped';
  /** Why the runtime halted the bot (repeated exchange failures), or null. */
  haltReason: string | null;
  /** Why the engine stopped the bot (`stoploss`, `profit_book`, …; see bot-reason.ts), or null. */
  stopReason: string | null;
  liveprice: number;
  /** Last prices for the card's sparkline, oldest first. */
  sparklineData: number[];
  /** Days since start, two decimals. */
  runtime: number;
  roi: number;
  apy: number;
  investment: number;
  /** Booked profit. */
  pnl: number;
  unrealizedPnl: number;
  totalPnl: number;
  /** Fills in the last 24 h. */
  trades24h: number;
  totalTrades: number;
  grid_no: number;
  total_grid: number;
  datewiseprofit: Record<string, number>;
  leverage: number;
  last_buying_price: number | null;
  avg_buy_price: number | null;
  purchased_qty: number;
  botstartdate: string;
  overbuy_protection_value: number | null;
  is_protection_active: boolean;
  profitbookat: number | null;
  sell_all_and_pause_at_price: number | null;
  restart_at_price: number | null;
  stoploss_and_stopbot_at_price: number | null;
  liquidationPrice: number | null;
  tradeType: 'multigrid' | 'scalp';
  /** The last buy the bot skipped since its last buy filled (its order was below the minimum). */
  skippedBuy?: SkippedBuyView | null;
  /** Coin the bot left in the account below the exchange's minimum order (docs/trading-rules.md §3), or null. */
  dust?: DustView | null;
  /** The prices the bot acts at next, for its price chart (docs/trading-rules.md §2.2, §2.3). */
  levels?: BotLevels;
}

/** The bot page's summary of one running bot (`/api/botinfo`, `/api/scalpbotinfo`). */
export interface BotInfo extends BotSummary {
  /**
   * Where the bot traded (Binance, Bybit, OKX or Paper): the exchange it was started on, or for a bot started
   * before that was recorded, the exchange of the user's key (null when none is bound).
   */
  exchange: string | null;
}

/**
 * The prices a grid bot acts at from its current state: the next grid's buy, each take-profit, and the
 * price triggers that are set. One implementation: `botLevels` in packages/engine (core/bot-levels.ts).
 */
export interface BotLevels {
  /** The next grid's buy level, or null when no buy is waiting on a price (see `botLevels`). */
  nextBuy: { grid: number; price: number } | null;
  /**
   * Where open lots are sold: Multigrid one per lot (its grid, armed when the price has reached it and
   * the trailing sell waits for the drop); Scalping one for the whole position (`grid` null).
   */
  takeProfits: { grid: number | null; price: number; armed: boolean }[];
  pause: number | null;
  restart: number | null;
  stoploss: number | null;
}

/** A bot's recorded dust as its page shows it. */
export interface DustView {
  /** Quantity of the base coin. */
  qty: number;
  asset: string;
  /** Its value in USDT at the live price. */
  value: number;
}

/** A skipped buy as the bot page shows it. */
export interface SkippedBuyView {
  grid: number;
  /** The order's value in USDT after rounding (futures: notional). */
  notional: number;
  minNotional: number;
  /** ISO time of the first tick it was skipped at. */
  since: string;
}

/** One row of the Order Book (docs/spec/02-bots-wallet-account.md §3 Order). */
export interface OrderBookRow {
  date: string;
  price: number;
  /** FUNDING: a futures funding payment of the position (docs/trading-rules.md §2.2), not an order. */
  type: 'BUY' | 'SELL' | 'FUNDING';
  quantity: number;
  cummulativeQuoteQty: number;
  /** Profit of a sell, the funding received (−: paid); 0 for buys. */
  pnl: number;
  grid: number;
}

export interface OrderBookPage {
  orders: OrderBookRow[];
  total: number;
  page: number;
  pages: number;
}

/** `/api/purchasedQty` (docs/spec/02-bots-wallet-account.md §3 Purchased quantity). */
export interface PurchasedQty {
  totalQuantity: number;
  avgPrice: number;
  /** Total PnL = booked + unrealized. */
  totalpnl: number;
  /** Unrealized PnL of what is held. */
  pnl: number;
}

/** One row of History (docs/spec/01-core-screens.md §3 History row). */
export interface HistoryRow {
  id: string;
  symbol: string;
  strategy_name: string;
  runtime: number;
  investment: number;
  profit: number;
  lossbook: number | null;
  totalpnl: number;
  roi: number;
  botstarttime: string;
  botstoptime: string | null;
  stopAt: number | null;
  trades: number;
  category: 'Spot' | 'Future';
  stopReason: string | null;
  /**
   * A futures bot stopped without a sale whose lots are still open (ours): its position stays on the exchange
   * and nothing was closed, so it has no closed price and is neither a profit nor a loss yet.
   */
  positionLeftOpen: boolean;
  /**
   * A range grid (ours, docs/trading-rules.md §2.6): its grid profit (the matched pairs', which `profit` also
   * shows) and the number of matched buy/sell pairs. Absent for other bots.
   */
  gridProfit?: number;
  matchedTrades?: number;
  /**
   * Where the bot traded (Binance, Bybit, OKX or Paper): the exchange it was started on, or for a bot started
   * before that was recorded, the exchange of the user's key (null when none is bound).
   */
  exchange: string | null;
}

/** `/api/totalprofitbookdata` (docs/spec/01-core-screens.md §3 Dashboard totals). */
export interface ProfitTotals {
  totalProfit: number;
  lossBook: number;
  totalpnl: number;
}

/**
 * A Copy BOTs card (docs/product.md §5): anonymous. No user, no amounts, no strategy name the user typed, no
 * bot id: `copyToken` is an opaque handle the copy call accepts instead.
 */
export interface TopBot {
  copyToken: string;
  /**
   * The same card on every read (the copy token is new each time): a one-way digest of the bot, so the page can
   * keep a card in its place and open the bot a click was aimed at, without learning which bot it is.
   */
  key: string;
  /** Pair such as BTCUSDT. */
  name: string;
  category: 'Spot' | 'Future';
  /** `range`: a range grid (docs/trading-rules.md §2.6); its strategy is the grid's parameters. */
  botType: 'multigrid' | 'scalping' | 'range';
  /**
   * The strategy's shape in words: "Multigrid 10" (kind and grid count); a range grid's range, grid count and
   * spacing, "Grid 1900–2100 · 4 grids · arithmetic".
   */
  shape: string;
  /**
   * The strategy's percentages (allotments, buys, take-profits), so it can be copied; a range grid's parameters
   * (lower, upper, grids, mode, stops, trailing, direction, leverage) without its name and start trigger.
   */
  strategy: Record<string, unknown>;
  leverage: number;
  runtime: number;
  roi: number;
  apy: number;
  /** Booked profit of the last 7 UTC days (today included), in percent of the investment: no amounts shown. */
  pnl7dPct: number;
  /** Deepest fall of the bot's equity from its peak, in percent (a positive number); null: not tracked (range grids). */
  maxDrawdownPct: number | null;
  /** How many members copied this strategy (a range grid: its parameters, once per member) from Copy BOTs. */
  copyCount: number;
  /** A bot of the demo install's sample trader, so a newcomer can tell sample data from members' bots. */
  demo: boolean;
  sparklineData: number[];
}

/** `/api/sltp`: the bot's price triggers (null when unset) and the live price they are checked against. */
export interface SltpValues {
  sell_all_and_pause_at_price: number | null;
  restart_at_price: number | null;
  stoploss_and_stopbot_at_price: number | null;
  liveprice: number;
}

/** `/api/protectionvalues`: overbuy grid protection and the bot's grid count (its upper bound is that minus one). */
export interface ProtectionValues {
  is_protection_active: boolean;
  protection_grid_at: number | null;
  total_grid: number;
}

/** `/api/profitbookat`: the profit book & stop percentage, or null when unset. */
export interface ProfitBookAt {
  profitbookat: number | null;
}

/** `/api/position` (Future bots). */
export interface BotPosition {
  liquidationPrice: number | null;
}

/** The answer of a bot setting's edit or a stop: `stopping` while a stop's final sale is still under way (202). */
export interface BotActionAnswer {
  success: boolean;
  message: string;
  stopping?: boolean;
}

/** One slice of the dashboard's funds pie: a running bot's pair and category, and its investment. */
export interface PieSlice {
  label: string;
  value: number;
}

/** `/api/pichart`: every USDT the account holds (`usdt`), the free spot USDT and the running bots' slices. */
export interface PieChartData {
  /** null on Binance while no API keys are connected (then `connected` is false). */
  usdt: string | null;
  availableBalance: string | null;
  chartData: PieSlice[];
  botCount: number;
  connected?: false;
}
