/**
 * Persistence port of the paper exchange. Narrow on purpose: reads, plus one `apply` that writes a
 * whole change (balance moves with their ledger rows, an order, a position) atomically. A SQL
 * implementation runs each `apply` (and `ensureAccount`) in one database transaction:
 *
 *   1. order insert → `INSERT … ON CONFLICT (user_id, client_order_id) DO NOTHING`; no row → return
 *      `duplicate_order` with the stored row; order update → `UPDATE … WHERE status = expectStatus`.
 *   2. balance moves → `UPDATE balances SET free = free + $d, locked = locked + $l … RETURNING`
 *      (insert the row when missing); a negative result → roll back, return `insufficient_balance`.
 *   3. one ledger row per move whose `freeDelta + lockedDelta` is not zero (or that is `always` logged).
 *   4. position → upsert/delete `WHERE version = expectVersion`; no row matched → roll back, `conflict`.
 *
 * Amounts are decimal strings (PostgreSQL `numeric`). Rows are keyed by `userId` first.
 */
import type { MarketKind, Order, OrderStatus, WalletKind } from '../exchange-port';

/** Why a ledger row exists. Σ amount of (user, wallet, asset) rows = that balance's free + locked. */
export type LedgerKind =
  | 'deposit'
  | 'buy'
  | 'sell'
  | 'fee'
  | 'transfer'
  | 'convert'
  | 'realized_pnl'
  | 'liquidation'
  | 'funding';

export interface PaperBalanceRow {
  wallet: WalletKind;
  asset: string;
  free: string;
  locked: string;
}

/** An order as stored: the port's `Order` plus what the paper exchange needs to settle it. */
export interface PaperOrderRow extends Order {
  userId: string;
  /** Futures: leverage the order was placed with. */
  leverage: number | undefined;
  /** Futures: the order may only reduce the position (never opens or flips it). False on spot. */
  reduceOnly: boolean;
  /** Amount moved from free to locked while the order is open (quote+fee for buys, base for spot sells). */
  reservedAsset: string | undefined;
  reserved: string;
}

/** Which way a one-way position points: bought (long) or sold (short). */
export type PositionSide = 'long' | 'short';

/**
 * An isolated one-way position (Binance USDT-M one-way mode: one net position per symbol). `quantity` is its
 * size, never negative; `side` says which way. `entryNotional` = Σ qty × price of the open quantity (exact
 * cost basis).
 */
export interface PaperPositionRow {
  userId: string;
  symbol: string;
  side: PositionSide;
  quantity: string;
  entryNotional: string;
  /** Margin held in the futures wallet's `locked` USDT. */
  isolatedMargin: string;
  leverage: number;
  /** Maintenance margin rate used for the liquidation price (docs/trading-rules.md §2.2). */
  maintMarginRate: number;
  liquidationPrice: string;
  /** Optimistic-concurrency version, 1 on insert, +1 on each write. */
  version: number;
  updatedMs: number;
}

export interface LedgerEntry {
  /** Store-assigned, increasing per store. */
  id: number;
  userId: string;
  wallet: WalletKind;
  asset: string;
  /** Signed change of the balance's total (free + locked). */
  amount: string;
  kind: LedgerKind;
  /** Client order id, transfer id or similar. */
  refId: string;
  tsMs: number;
}

/** One change of a balance. Free→locked moves have deltas summing to zero and write no ledger row. */
export interface BalanceMove {
  wallet: WalletKind;
  asset: string;
  freeDelta: string;
  lockedDelta: string;
  kind: LedgerKind;
  refId: string;
  /** Write a ledger row even when the total does not change (liquidation of a zero balance…). */
  always?: boolean;
}

export type OrderWrite =
  | { op: 'insert'; row: PaperOrderRow }
  | { op: 'update'; row: PaperOrderRow; expectStatus: OrderStatus };

export interface PositionWrite {
  symbol: string;
  /** Version the caller read; null when it read no position. */
  expectVersion: number | null;
  /** The new row (its `version` is set by the store), or null to delete. */
  next: Omit<PaperPositionRow, 'version'> | null;
}

export interface PaperChange {
  userId: string;
  tsMs: number;
  moves: readonly BalanceMove[];
  order?: OrderWrite;
  position?: PositionWrite;
  /**
   * Applies at most once: when a ledger row of the same kind and refId as one of `moves` exists for the user,
   * the change writes nothing and answers `already_applied`. For payments that a caller may send again after a
   * crash (a funding payment under its bot and funding time).
   */
  once?: true;
}

export type ApplyResult =
  | { ok: true }
  | { ok: false; reason: 'already_applied' }
  | { ok: false; reason: 'insufficient_balance'; wallet: WalletKind; asset: string }
  | { ok: false; reason: 'duplicate_order'; existing: PaperOrderRow }
  | { ok: false; reason: 'conflict' };

export interface OpenOrderFilter {
  userId?: string;
  market?: MarketKind;
  symbol?: string;
}

export interface PaperStore {
  /**
   * Creates the account with its starting funds (one `deposit` ledger row each) unless it exists.
   * Safe to call concurrently: exactly one call creates it. Returns whether this call created it.
   */
  ensureAccount(
    userId: string,
    funds: ReadonlyArray<{ wallet: WalletKind; asset: string; amount: string }>,
    tsMs: number,
  ): Promise<{ created: boolean }>;
  balances(userId: string): Promise<PaperBalanceRow[]>;
  order(userId: string, clientOrderId: string): Promise<PaperOrderRow | undefined>;
  /** Orders with status NEW, of every user unless filtered (the matcher loads them at start). */
  openOrders(filter?: OpenOrderFilter): Promise<PaperOrderRow[]>;
  position(userId: string, symbol: string): Promise<PaperPositionRow | undefined>;
  /** Open positions, of every user unless filtered. */
  positions(filter?: { userId?: string; symbol?: string }): Promise<PaperPositionRow[]>;
  /** Leverage chosen for a futures symbol, undefined when never set. */
  leverage(userId: string, symbol: string): Promise<number | undefined>;
  setLeverage(userId: string, symbol: string, leverage: number): Promise<void>;
  /** Ledger rows of a user in id order. */
  ledger(userId: string): Promise<LedgerEntry[]>;
  /** Applies a change atomically: all of it or nothing. */
  apply(change: PaperChange): Promise<ApplyResult>;
}
