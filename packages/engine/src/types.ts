/**
 * Shapes shared by every strategy. All state is plain JSON-serialisable data (numbers, strings,
 * arrays, plain objects, null): the runtime stores it between ticks and `step()` returns it fresh.
 */
import type { MarketKind } from '@gridbot/shared';
import type { MoneyInput } from './money';

/** One observed price `price` at time `timeMs` (Unix ms, UTC) (docs/trading-rules.md §2). */
export interface Tick {
  price: number;
  timeMs: number;
  /** Futures: the mark price, on which the exchange liquidates (§2.2); absent: the price stands in. */
  markPrice?: number;
}

export type BotStatus = 'Live' | 'Pause' | 'Stopped';

/** Why a bot or cycle stopped. `manual` = stop without selling, `manual_sell` = stop and sell. */
export type StopReason = 'stoploss' | 'profit_book' | 'liquidated' | 'manual' | 'manual_sell' | 'completed';

/** Why lots are sold. */
/** `missing`: coins the exchange account no longer holds (sold outside the platform), dropped by the user. */
export type SellReason =
  | 'take_profit'
  | 'stoploss'
  | 'pause'
  | 'profit_book'
  | 'manual_sell'
  | 'liquidated'
  | 'missing';

/**
 * One open position bought by one buy intent (docs/trading-rules.md §2.2). `qty` is what was really received (after a
 * base-asset fee); `quote` what was really spent (futures: the notional); `fee` is in USDT.
 */
export interface Lot {
  /** The `seq` of the buy intent that opened it; unique per bot, ascending in buy order. */
  id: number;
  grid: number;
  price: number;
  qty: number;
  quote: number;
  fee: number;
  /** Futures: quote / leverage (the isolated margin); spot: = quote. */
  margin: number;
  timeMs: number;
  tpPct: number;
  tpDownPct: number;
  /** Cached `price × (1 + tpPct/100)`, the arming price. */
  tpPrice: number;
  armed: boolean;
  /** Highest price since arming (0 while not armed). */
  high: number;
}

/** Market buy of grid `grid` (docs/trading-rules.md §2.1: qty = floor(notional / price / step) × step). */
export interface MarketBuy {
  type: 'MarketBuy';
  /** Per-bot sequence; the runtime's client order id is `${botId}-${seq}`. */
  seq: number;
  grid: number;
  /** Base quantity to buy, already rounded down to the step. */
  qty: string;
  /** The grid's planned quote (futures: margin) = investment × alloc[grid]. */
  quoteAmount: string;
  /** Reference price the decision was taken at (the tick price). */
  price: number;
  /**
   * The level of the event that decided it (docs/trading-rules.md §2.5), set by a runtime that walks the price's
   * line to it: a simulated exchange fills the order at this level rounded against the bot, as the backtest
   * does. Absent: the exchange's price when the order arrives.
   */
  eventPrice?: number;
  /**
   * A re-buy of coins sold outside the platform: the base quantity the bot's lots lack. Its fill tops up
   * the newest lot instead of opening a grid.
   */
  missingQty?: string;
}

/** Market sell (futures: reduce-only) of whole lots, newest first. */
export interface SellLots {
  type: 'SellLots';
  seq: number;
  lotIds: number[];
  grids: number[];
  /**
   * (Σ lot qty + the dust it sells with them) rounded down to the step (docs/trading-rules.md §2.1): what stays
   * below one step is the bot's dust again.
   */
  qty: string;
  /** The bot's carried dust this sell includes; absent: none. */
  dustQty?: string;
  price: number;
  /**
   * The level of the event that decided it (docs/trading-rules.md §2.5), set by a runtime that walks the price's
   * line to it: a simulated exchange fills the order at this level rounded against the bot, as the backtest
   * does. Absent: the exchange's price when the order arrives.
   */
  eventPrice?: number;
  reason: SellReason;
}

/**
 * Futures: the position reached its liquidation price (docs/trading-rules.md §2.2). No order is sent: the exchange
 * closes the position. The runtime confirms it with a fill (backtests: at `price` for `quote`, no fee).
 */
export interface RecordLiquidation {
  type: 'RecordLiquidation';
  seq: number;
  lotIds: number[];
  grids: number[];
  qty: string;
  /** The liquidation price. */
  price: number;
  /** Σ notional − Σ margin: what closing returns once the margin is lost. */
  quote: string;
  /** The exchange's commission on its close, in USDT, when the exchange's figures are known. */
  fee?: string;
}

export type Intent = MarketBuy | SellLots | RecordLiquidation;

/**
 * Range grid (docs/trading-rules.md §2.6): place a limit order (GTC) resting at grid level `level`. The
 * order is on the bot's state from the moment the intent is issued; its fill arrives with this `seq`.
 */
export interface PlaceLimit {
  type: 'PlaceLimit';
  seq: number;
  level: number;
  side: 'buy' | 'sell';
  /** The level's price, on the tick. */
  price: string;
  /** Base quantity, on the step. */
  qty: string;
  /** Futures: the order only closes the position (it answers an opening fill, §2.6). */
  reduceOnly?: boolean;
}

/**
 * Futures range grid: a market order opening or closing the one-way position (the start, trailing, a
 * stop's close). `reduceOnly` when it may only close.
 */
export interface RangeMarketOrder {
  type: 'RangeMarketOrder';
  seq: number;
  side: 'buy' | 'sell';
  /** Base quantity, on the step. */
  qty: string;
  /** Reference price the decision was taken at. */
  price: number;
  reduceOnly: boolean;
}

/** Range grid: cancel the resting limit order issued as `orderSeq` at `level`. */
export interface CancelOrder {
  type: 'CancelOrder';
  seq: number;
  orderSeq: number;
  level: number;
}

/**
 * What a range grid asks for: market orders of the kinds above (start, trailing, stops) and limit
 * orders. Kept apart from `Intent` so the runtimes of the other kinds are not asked to handle limits.
 */
export type RangeIntent = MarketBuy | SellLots | PlaceLimit | CancelOrder | RangeMarketOrder;

/** An intent sent and not yet filled or failed, with what is needed to undo it on failure. */
export interface PendingIntent {
  intent: Intent;
  /** Lots taken off the stack by a sell, restored if the sell fails. */
  lots: Lot[];
  prevStatus: string;
  prevStopReason: StopReason | null;
  /** The status this intent's decision set (a risk exit), undone on failure only if still current. */
  setStatus: string | null;
}

/**
 * The final execution of one intent, summed over its exchange trades. Numeric fields may be decimal
 * strings as the exchange reports them. A sell's `qty` may be less than asked (partial fill).
 */
export interface Fill {
  seq: number;
  side: 'buy' | 'sell';
  /** Average fill price. */
  price: MoneyInput;
  /** Base quantity executed. */
  qty: MoneyInput;
  /** Quote spent or received (futures: notional). */
  quote: MoneyInput;
  fee: MoneyInput;
  /** 'quote' (USDT, default) or 'base' (spot buy fee taken from the bought coin). Convert others first. */
  feeAsset?: 'quote' | 'base';
  timeMs: number;
  /** The exchange's trade or order id, for the record. */
  tradeId?: string;
}

/** Running money totals of a bot, all in USDT, updated in decimal at each fill. */
export interface Account {
  investment: number;
  bookedProfit: number;
  /** Every fee paid, buys and sells (already inside bookedProfit for sold lots). */
  fees: number;
  /** Number of fills applied. */
  trades: number;
  /** Σ qty / quote / margin of open lots. */
  openQty: number;
  openQuote: number;
  openMargin: number;
  /** Σ (quote + fee) of open lots: unrealized = openQty × p − openCost. */
  openCost: number;
  /** Futures liquidation price of the open position; 0 when none (spot, flat, leverage 1). */
  liqPrice: number;
  /**
   * Futures: the position as the exchange keeps it (docs/trading-rules.md §2.2): size, cost at the average entry
   * (Q × E) and isolated margin. A partial sell keeps E and releases cost and margin in proportion.
   * Absent in states saved before they were kept: then the open lots' totals stand in.
   */
  posQty?: number;
  posNotional?: number;
  posMargin?: number;
  /**
   * Spot dust (docs/trading-rules.md §2.1): the coin the bot holds beyond its lots (what a sell's step rounding or a
   * refused sell left). The next sell of lots includes it. Absent in states saved before it was carried: none.
   */
  dustQty: number;
  /**
   * USDT of the dust already booked as sold (a sell the exchange refused closes its lots at its price):
   * unrealized PnL counts the dust at the price less this. Absent: 0.
   */
  dustCost?: number;
  /** Base quantity dropped from the lots because the account no longer held it; absent: none. */
  missingQty?: number;
  /** Futures funding received (+) or paid (−), already inside bookedProfit; absent: none yet. */
  funding?: number;
}

/** Statistics kept from the same code that trades (docs/spec/01-core-screens.md §3 bot summary). */
export interface Stats {
  startTimeMs: number;
  /** Highest equity (investment + total PnL) seen on a tick. */
  peakEquity: number;
  maxDrawdownPct: number;
  /** Booked profit per UTC day of the sell, keyed `YYYY-MM-DD` (datewiseprofit). */
  datewiseProfit: Record<string, number>;
  lastBuyTimeMs: number | null;
}

/**
 * A buy the engine skipped (its order would be below the minimum notional), kept on the state so the
 * bot's page shows it until a buy fills. `timeMs` is the first tick it was skipped at.
 */
export interface SkippedBuy {
  grid: number;
  reason: 'below_min_notional';
  notional: number;
  minNotional: number;
  timeMs: number;
}

/** Extra outcomes a tick may report, e.g. a buy skipped because it fell below min notional. */
export interface Notice {
  type: 'BuySkipped';
  grid: number;
  reason: 'below_min_notional';
  notional: number;
  minNotional: number;
}

export interface StepResult<S> {
  state: S;
  intents: readonly Intent[];
  notices?: readonly Notice[];
}

export type { MarketKind };
