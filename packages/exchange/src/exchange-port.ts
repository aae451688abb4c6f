/**
 * The one exchange port (docs/architecture.md §1, docs/contributing.md §4), implemented by `PaperExchange` accounts and by the
 * Binance adapter. An `Exchange` is one user's account on one venue. Every amount, price and quantity
 * crossing it is a decimal string; failures are `ExchangeError`s (see exchange-error.ts).
 */
import type { MarketKind, MarketRules } from '@gridbot/shared';

export type { MarketKind, MarketRules };

/** Which wallet of the account: spot, or the USDT-M futures wallet. Same names as `MarketKind`. */
export type WalletKind = MarketKind;

/** Decimal number written as a string, e.g. '0.00123'. */
export type DecimalString = string;

/** Caller-chosen order id (docs/trading-rules.md §3: bot id + sequence), unique per account. Binance allows ≤ 36 chars. */
export type ClientOrderId = string;

export type OrderSide = 'buy' | 'sell';
export type OrderType = 'market' | 'limit';
/** Order states with Binance's meaning. The paper exchange fills whole orders (never PARTIALLY_FILLED). */
export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'REJECTED' | 'EXPIRED';

export interface Balance {
  asset: string;
  /** Available to trade, transfer or withdraw. */
  free: DecimalString;
  /** Held by open orders. */
  locked: DecimalString;
}

/** A spot asset with its value in USDT at the last price (USDT itself is valued 1:1). */
export interface AssetValue extends Balance {
  total: DecimalString;
  /** `total × last price`, or undefined when the asset has no USDT market. */
  valueUsdt: DecimalString | undefined;
}

export interface PlaceOrderInput {
  market: MarketKind;
  symbol: string;
  side: OrderSide;
  type: OrderType;
  clientOrderId: ClientOrderId;
  /** Base quantity; rounded down to the step size. Give `quantity` or (market buys only) `quoteAmount`. */
  quantity?: DecimalString;
  /** Market buy only: spend this much quote; quantity = floor(quote / price / step) × step (docs/trading-rules.md §2.1). */
  quoteAmount?: DecimalString;
  /** Limit price; rounded to the tick size. */
  price?: DecimalString;
  /**
   * Limit orders: refused rather than filled when the price already crosses it (a maker-only order: Binance
   * spot LIMIT_MAKER, futures timeInForce GTX). Without it a limit order is GTC and may fill at once.
   */
  postOnly?: boolean;
  /**
   * Futures: only reduce the position, never open or flip it (Binance USDT-M one-way mode). Given, it is sent as
   * it is (`false`: a sell opens a short, on an exchange whose `opensShorts` is set). Left out, a live adapter
   * sends a sell reduce-only (the long-only bots' sells close their longs: `futuresReduceOnly`); the paper
   * exchange opens a short with a sell that is not.
   */
  reduceOnly?: boolean;
  /**
   * Market orders an engine event produced: the level that set it off. A simulated exchange fills at this
   * level rounded against the bot, as the backtest does (docs/trading-rules.md §2.5, `marketFillPrice`); a real
   * exchange fills where its book is and ignores it.
   */
  eventPrice?: DecimalString;
}

export interface Order {
  market: MarketKind;
  symbol: string;
  clientOrderId: ClientOrderId;
  /** The venue's own id (paper: a sequence number). */
  exchangeOrderId: string;
  side: OrderSide;
  type: OrderType;
  status: OrderStatus;
  /** Limit price (rounded), undefined for market orders. */
  price: DecimalString | undefined;
  /** Ordered base quantity (rounded). */
  quantity: DecimalString;
  filledQuantity: DecimalString;
  /** Quote (notional on futures) of what was filled: Σ qty × price. */
  filledQuote: DecimalString;
  /** Average fill price, undefined when nothing is filled. */
  averagePrice: DecimalString | undefined;
  /** Fee charged, in `feeAsset` (USDT on the paper exchange, docs/trading-rules.md §2.1). */
  fee: DecimalString;
  feeAsset: string;
  createdMs: number;
  updatedMs: number;
  /**
   * The order's trades as the venue reported them, oldest first, when it did (Binance: the order's rows of
   * `myTrades` / `userTrades`, or the FULL response's `fills`); absent on the paper exchange. A part of an
   * order books its own trades' fee (docs/trading-rules.md §3 "Fills come with their fees").
   */
  trades?: OrderTrade[];
}

/** One trade of an order: its quantity, quote and the commission charged for it, in `feeAsset`. */
export interface OrderTrade {
  /** The venue's trade id. */
  id: string;
  qty: DecimalString;
  quote: DecimalString;
  fee: DecimalString;
  feeAsset: string;
}

/**
 * Answer of `fetchOrder`: docs/trading-rules.md §3 reconciliation must tell "the venue says it has no such order"
 * (safe to send again with the same id) from "no answer" (an `ExchangeError` of kind retryable is thrown).
 */
export type FetchOrderResult = { found: true; order: Order } | { found: false };

/** One-way, isolated-margin USDT-M position (docs/trading-rules.md §2.2): long, or short on the paper exchange. */
export interface FuturesPosition {
  symbol: string;
  side: 'long' | 'short';
  quantity: DecimalString;
  entryPrice: DecimalString;
  leverage: number;
  marginType: 'isolated';
  /** Margin held by the position, in USDT. */
  isolatedMargin: DecimalString;
  /**
   * Price at which the position is liquidated, a long at or below it, a short at or above it
   * (docs/trading-rules.md §2.2 formula on the paper exchange).
   */
  liquidationPrice: DecimalString;
  markPrice: DecimalString | undefined;
  unrealizedPnl: DecimalString | undefined;
}

/**
 * A futures position the exchange closed itself (liquidation, or auto-deleveraging), with the figures of
 * its trades: what the bot books when the exchange, not the bot, closed the position (docs/trading-rules.md §3).
 */
export interface ForcedClose {
  symbol: string;
  exchangeOrderId: string;
  reason: 'liquidation' | 'adl';
  /** Average price the exchange closed at. */
  averagePrice: DecimalString;
  quantity: DecimalString;
  /** Σ qty × price of its trades. */
  quote: DecimalString;
  /** Commission of its trades, in USDT. */
  fee: DecimalString;
  /** Σ realized PnL of its trades (negative when the margin was lost). */
  realizedPnl: DecimalString;
  timeMs: number;
}

export type TransferDirection = 'spot_to_future' | 'future_to_spot';

export interface TransferResult {
  /** Venue transfer id (paper: a generated id). */
  transferId: string;
  direction: TransferDirection;
  asset: 'USDT';
  amount: DecimalString;
}

export interface ConvertResult {
  asset: string;
  /** Base quantity sold (rounded down to the spot step size). */
  soldQuantity: DecimalString;
  /** USDT credited after the fee. */
  usdtReceived: DecimalString;
  fee: DecimalString;
  price: DecimalString;
}

/** One user's account on one venue (paper, Binance, Bybit or OKX). */
export interface Exchange {
  readonly venue: 'paper' | 'binance' | 'bybit' | 'okx';
  /**
   * How long after a call to `placeOrder` that ended without a clear answer (a timeout, a lost answer,
   * -1007) the order may still appear on the exchange: until then, "no such order" is not final
   * (docs/trading-rules.md §3). None (0) when an order can never arrive late (the paper exchange).
   */
  readonly lateOrderWindowMs?: number;
  /**
   * Spot and futures draw on one USDT balance (OKX's unified trading account): both wallets show it, so what
   * bots hold in either is held from the same money.
   */
  readonly sharedWallet?: boolean;
  /**
   * Futures sells open shorts when asked (`reduceOnly: false`), so short and neutral futures grids can run
   * here. Unset: every futures sell only reduces a long.
   */
  readonly opensShorts?: boolean;
  /** Rules orders are rounded and checked against (paper: the shared table; Binance: loaded markets). */
  marketRules(symbol: string, market: MarketKind): Promise<MarketRules>;
  /** Balances of one wallet; assets with zero balance may be left out, USDT is always present. */
  balances(wallet: WalletKind): Promise<Balance[]>;
  /** Free USDT of the spot and the futures wallet, read together (the dashboard polls both). */
  usdtFree(): Promise<Record<WalletKind, string>>;
  /** Non-zero spot assets valued in USDT (Wallet Dashboard, docs/spec/02-bots-wallet-account.md). */
  spotAssets(): Promise<AssetValue[]>;
  /**
   * Places an order. A client order id the account has already used returns that original order
   * unchanged and never fills twice. Rounds quantity down to the step and price to the tick, then
   * checks LOT_SIZE and NOTIONAL filters.
   */
  placeOrder(input: PlaceOrderInput): Promise<Order>;
  /** Looks an order up by client order id; throws a retryable `ExchangeError` when there is no answer. */
  fetchOrder(market: MarketKind, symbol: string, clientOrderId: ClientOrderId): Promise<FetchOrderResult>;
  /** Cancels an open order; a finished or unknown one is rejected with -2011 'Unknown order sent.'. */
  cancelOrder(market: MarketKind, symbol: string, clientOrderId: ClientOrderId): Promise<Order>;
  openOrders(market: MarketKind, symbol?: string): Promise<Order[]>;
  /** Sets isolated margin and the leverage (1–10) used by the next futures orders of the symbol. */
  setLeverage(symbol: string, leverage: number): Promise<void>;
  /** The open one-way position of a symbol (long or short), or undefined when flat. */
  position(symbol: string): Promise<FuturesPosition | undefined>;
  positions(): Promise<FuturesPosition[]>;
  /** Positions of the symbol the exchange closed itself since `sinceMs`, oldest first. */
  forcedCloses(symbol: string, sinceMs: number): Promise<ForcedClose[]>;
  /** Moves USDT between the spot and futures wallets. */
  transfer(direction: TransferDirection, amount: DecimalString): Promise<TransferResult>;
  /** Sells `amount` (default: all free) of a spot asset for USDT at market (Swap to USDT, docs/spec/02-bots-wallet-account.md). */
  convertToUsdt(asset: string, amount?: DecimalString): Promise<ConvertResult>;
}

/** Leverage bounds the platform allows (spec: 1–10), below Binance's per-symbol maximum. */
export const LEVERAGE_MIN = 1;
export const LEVERAGE_MAX = 10;

/** Whether a leverage is a whole number within the platform's bounds and the symbol's own maximum. */
export function isAllowedLeverage(leverage: number, symbolMax: number): boolean {
  return (
    Number.isInteger(leverage) && leverage >= LEVERAGE_MIN && leverage <= Math.min(LEVERAGE_MAX, symbolMax)
  );
}

/**
 * Whether a live adapter sends a futures order reduce-only: as the order says when it says, else a sell
 * (the long-only bots' sells close their longs and must never open a short).
 */
export function futuresReduceOnly(input: Pick<PlaceOrderInput, 'side' | 'reduceOnly'>): boolean {
  return input.reduceOnly ?? input.side === 'sell';
}
