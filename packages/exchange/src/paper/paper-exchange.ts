import {
  DEFAULT_FEE_PCT,
  findMarketRules,
  groupBy,
  MAKER_FEE_PCT,
  type MarketRules,
  type Money,
  money,
} from '@gridbot/shared';
import { exchangeErrors } from '../exchange-error';
import type { Exchange, MarketKind, Order, WalletKind } from '../exchange-port';
import type { MarketFeed, Tick } from '../market-feed';
import { liquidationReached } from './futures-math';
import { MatchIndex } from './match-index';
import { PaperAccount } from './paper-account';
import { filledRow, futuresFill, reducesOnly, releaseMoves, spotFillMoves } from './paper-fills';
import { publicOrder } from './paper-rows';
import type {
  ApplyResult,
  PaperChange,
  PaperOrderRow,
  PaperPositionRow,
  PaperStore,
  PositionSide,
} from './paper-store';

export interface PaperFund {
  wallet: WalletKind;
  asset: string;
  amount: string;
}

export interface PaperExchangeOptions {
  store: PaperStore;
  /** Prices: market orders fill at its last price, its ticks fill limit orders and liquidate positions. */
  feed: MarketFeed;
  /** Funds of a new account. Default 10,000 USDT spot; the server passes `PAPER_START_USDT`. */
  startFunds?: readonly PaperFund[];
  /**
   * Taker fees in percent: market orders and limit orders that cross the price on arrival (docs/trading-rules.md
   * §2.1 defaults: spot 0.1 % of quote, futures 0.05 % of notional).
   */
  feePct?: { spot?: string | number; future?: string | number };
  /** Maker fees in percent: a resting limit order filled on a tick (§2.6 defaults: spot 0.1 %, futures 0.02 %). */
  makerFeePct?: { spot?: string | number; future?: string | number };
  /** Time of orders and ledger rows. Default `Date.now`. */
  now?: () => number;
  /** Market rules. Default: the shared table. */
  rules?: (symbol: string, market: MarketKind) => MarketRules | undefined;
}

/** What happened outside a caller's own request: a limit order filled on a tick, a position liquidated. */
export type PaperEvent =
  | { type: 'order'; userId: string; order: Order }
  | {
      type: 'liquidation';
      userId: string;
      symbol: string;
      side: PositionSide;
      quantity: string;
      price: string;
      marginLost: string;
    };

/** Default starting funds of a paper account (PAPER_START_USDT default). */
export const DEFAULT_PAPER_START_USDT = '10000';

/**
 * The paper exchange: one account per user, persisted through a `PaperStore`. `forUser(id)` gives the
 * `Exchange` of that user; `start()` subscribes to the feed so limit orders fill and positions are
 * liquidated on ticks. Every operation of one user runs after the previous one (per-account queue); a look-up
 * of an order waits only for the operations on that order.
 */
export class PaperExchange {
  readonly store: PaperStore;
  readonly feed: MarketFeed;
  readonly now: () => number;
  readonly fees: { spot: Money; future: Money };
  readonly makerFees: { spot: Money; future: Money };
  private readonly startFunds: readonly PaperFund[];
  private readonly rulesOf: (symbol: string, market: MarketKind) => MarketRules | undefined;
  private readonly tails = new Map<string, Promise<void>>();
  /**
   * The last operation queued on each order (user and client order id), settled, with the row it wrote when
   * it was a fill on a tick. The operations on one order run one after another, and a look-up of the order
   * waits for them alone, not for the user's whole queue.
   */
  private readonly orderTails = new Map<string, Promise<PaperOrderRow | undefined>>();
  /**
   * Open orders this process placed: the matcher holds the rows it wrote. Orders it loaded from the store (placed
   * before a restart, or by another process that matches them too) are read before their fill is written.
   */
  private readonly placedHere = new Set<string>();
  private readonly known = new Set<string>();
  private readonly listeners = new Set<(event: PaperEvent) => void>();
  private readonly index: MatchIndex;

  constructor(options: PaperExchangeOptions) {
    this.store = options.store;
    this.feed = options.feed;
    this.now = options.now ?? Date.now;
    this.fees = {
      spot: money(options.feePct?.spot ?? DEFAULT_FEE_PCT.spot),
      future: money(options.feePct?.future ?? DEFAULT_FEE_PCT.future),
    };
    this.makerFees = {
      spot: money(options.makerFeePct?.spot ?? MAKER_FEE_PCT.spot),
      future: money(options.makerFeePct?.future ?? MAKER_FEE_PCT.future),
    };
    this.startFunds = options.startFunds ?? [
      { wallet: 'spot', asset: 'USDT', amount: DEFAULT_PAPER_START_USDT },
    ];
    this.rulesOf = options.rules ?? findMarketRules;
    this.index = new MatchIndex(this.feed, (tick, orders, liquidations) =>
      this.onCross(tick, orders, liquidations),
    );
  }

  /** The `Exchange` of one user; the account is created and funded on first use. */
  forUser(userId: string): Exchange {
    return new PaperAccount(this, userId);
  }

  /** Loads open orders and positions and starts matching them against feed ticks. */
  async start(): Promise<void> {
    for (const order of await this.store.openOrders()) this.index.addOrder(order);
    for (const position of await this.store.positions()) this.index.setPosition(position);
    this.index.start();
  }

  /** Stops matching (open orders stay open). */
  async stop(): Promise<void> {
    this.index.stop();
  }

  /** Adds funds outside trading (demo seeding, admin credit): one `deposit` ledger row. */
  async fund(userId: string, wallet: WalletKind, asset: string, amount: string): Promise<void> {
    await this.serial(userId, async () => {
      await this.ensureAccount(userId);
      const move = {
        wallet,
        asset,
        freeDelta: money(amount).toFixed(),
        lockedDelta: '0',
        kind: 'deposit' as const,
        refId: 'fund',
      };
      await this.mustApply({ userId, tsMs: this.now(), moves: [move] });
    });
  }

  /**
   * A futures funding payment (docs/trading-rules.md §2.2): `amount` USDT received (> 0) or paid (< 0) in the
   * futures wallet, one `funding` ledger row under `refId`, at most once per `refId`: a payment sent again after
   * a crash changes nothing. Answers false when the wallet cannot pay it.
   */
  async applyFunding(userId: string, amount: string, refId: string): Promise<boolean> {
    return this.serial(userId, async () => {
      await this.ensureAccount(userId);
      const move = {
        wallet: 'future' as const,
        asset: 'USDT',
        freeDelta: money(amount).toFixed(),
        lockedDelta: '0',
        kind: 'funding' as const,
        refId,
      };
      const result = await this.mustApply({ userId, tsMs: this.now(), moves: [move], once: true });
      return result.ok || result.reason === 'already_applied';
    });
  }

  /** Subscribes to fills and liquidations that happen on ticks; returns the unsubscribe function. */
  on(listener: (event: PaperEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  rules(symbol: string, market: MarketKind): MarketRules {
    const rules = this.rulesOf(symbol.toUpperCase(), market);
    if (!rules) throw exchangeErrors.invalidSymbol();
    return rules;
  }

  /** Runs `fn` after every earlier operation of the same user has finished. */
  serial<T>(userId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(userId) ?? Promise.resolve();
    const run = previous.then(fn);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(userId, tail);
    void tail.then(() => {
      if (this.tails.get(userId) === tail) this.tails.delete(userId);
    });
    return run;
  }

  /**
   * Runs `fn` in the user's queue as the latest operation on the order `clientOrderId`, once the operations
   * queued on that order before it are done (`lookUp` waits for it).
   */
  serialOnOrder<T>(userId: string, clientOrderId: string, fn: () => Promise<T>): Promise<T> {
    return this.onOrder(userId, clientOrderId, (previous) =>
      this.serial(userId, async () => {
        await previous;
        return fn();
      }),
    );
  }

  /**
   * Queues an operation on one order: `start` gets the order's previous operation to wait for and starts
   * this one; answers it, recorded as the order's last with the row `rowOf` finds in its answer (a fill's).
   */
  private onOrder<T>(
    userId: string,
    clientOrderId: string,
    start: (previous: Promise<unknown>) => Promise<T>,
    rowOf: (result: T) => PaperOrderRow | undefined = () => undefined,
  ): Promise<T> {
    const key = orderTailKey(userId, clientOrderId);
    const run = start(this.orderTails.get(key) ?? Promise.resolve());
    const tail = run.then(rowOf, () => undefined);
    this.orderTails.set(key, tail);
    void tail.then(() => {
      if (this.orderTails.get(key) === tail) this.orderTails.delete(key);
    });
    return run;
  }

  /**
   * An order as its operations left it. A look-up is a read: it waits only for what is queued on this order
   * (its placement or cancel, or its fill by a tick that crossed it), not behind the user's other orders, so
   * a bot learns of its fill once that fill is written. A fill answers the row it wrote, as a venue's
   * execution report carries the order's state, with no read of its own.
   */
  async lookUp(userId: string, clientOrderId: string): Promise<PaperOrderRow | undefined> {
    const op = this.orderTails.get(orderTailKey(userId, clientOrderId));
    const written = op === undefined ? undefined : await op;
    return written ?? this.store.order(userId, clientOrderId);
  }

  async ensureAccount(userId: string): Promise<void> {
    if (this.known.has(userId)) return;
    await this.store.ensureAccount(userId, this.startFunds, this.now());
    this.known.add(userId);
  }

  /** Applies a change; a write conflict (another process) surfaces as a retryable error. */
  async mustApply(change: PaperChange): Promise<Exclude<ApplyResult, { reason: 'conflict' }>> {
    const result = await this.store.apply(change);
    if (!result.ok && result.reason === 'conflict') {
      throw exchangeErrors.noAnswer('Concurrent update of the paper account; try again.');
    }
    return result;
  }

  /** Keeps the matcher's view in step after a write. */
  track(
    order: PaperOrderRow | undefined,
    position: PaperPositionRow | null | undefined,
    userId: string,
    symbol: string,
  ) {
    if (order) {
      const key = orderTailKey(order.userId, order.clientOrderId);
      if (order.status === 'NEW') {
        this.index.addOrder(order);
        this.placedHere.add(key);
      } else {
        this.index.removeOrder(order);
        this.placedHere.delete(key);
      }
    }
    if (position !== undefined) {
      if (position) this.index.setPosition(position);
      else this.index.removePosition(userId, symbol);
    }
  }

  emit(event: PaperEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        console.error('paper exchange listener failed', error);
      }
    }
  }

  /**
   * Liquidates the user's position when `markPrice` reaches its liquidation price (docs/trading-rules.md §2.2):
   * a long at or below it, a short at or above it.
   */
  async liquidateIfDue(userId: string, symbol: string, markPrice: Money): Promise<boolean> {
    const position = await this.store.position(userId, symbol);
    if (!position || !liquidationReached(position, markPrice)) return false;
    const margin = money(position.isolatedMargin);
    const result = await this.mustApply({
      userId,
      tsMs: this.now(),
      moves: [
        {
          wallet: 'future',
          asset: 'USDT',
          freeDelta: '0',
          lockedDelta: margin.negated().toFixed(),
          kind: 'liquidation',
          refId: `liq-${symbol}-${position.version}`,
          always: true,
        },
      ],
      position: { symbol, expectVersion: position.version, next: null },
    });
    if (!result.ok) return false;
    this.track(undefined, null, userId, symbol);
    this.emit({
      type: 'liquidation',
      userId,
      symbol,
      side: position.side,
      quantity: position.quantity,
      price: markPrice.toFixed(),
      marginLost: margin.toFixed(),
    });
    return true;
  }

  /**
   * Fills an open limit order at its limit price (it crossed) with the maker fee (docs/trading-rules.md §2.6: a
   * spot buy's commission in the coin, §2.1); returns the stored row afterwards. `crossed`, the matcher's row of
   * a spot order this process placed and has nothing else queued on, is the stored row while the store holds the
   * order open: an open order is never changed until it leaves NEW, and the fill's write checks that it has not.
   * A tick that crosses a hundred orders then writes their fills without first reading each of them.
   */
  async fillOpenOrder(
    userId: string,
    clientOrderId: string,
    crossed?: PaperOrderRow,
  ): Promise<PaperOrderRow | undefined> {
    const row = crossed ?? (await this.store.order(userId, clientOrderId));
    if (row?.status !== 'NEW' || row.price === undefined) return row;
    const qty = money(row.quantity);
    const price = money(row.price);
    const tsMs = this.now();
    if (row.market === 'spot') {
      const { moves, fee, feeAsset } = spotFillMoves(row, qty, price, this.makerFees.spot);
      const next = filledRow(row, qty, price, fee, tsMs, feeAsset);
      const result = await this.store.apply({
        userId,
        tsMs,
        moves,
        order: { op: 'update', row: next, expectStatus: 'NEW' },
      });
      if (result.ok) return next;
      if (result.reason !== 'conflict') return this.expire(row, tsMs);
      // Another writer (a cancel, another process's fill) ended the order first: its row says how.
      const stored = await this.store.order(userId, clientOrderId);
      if (stored?.status !== 'NEW') return stored;
      throw exchangeErrors.noAnswer('Concurrent update of the paper account; try again.');
    }
    const position = await this.store.position(userId, row.symbol);
    const rules = this.rules(row.symbol, 'future');
    // A reduce-only order that would no longer only reduce (the position closed or shrank) cannot fill.
    if (row.reduceOnly && !reducesOnly(position, row.side, qty)) return this.expire(row, tsMs);
    const fill = futuresFill(row, position, qty, price, this.makerFees.future, rules.maintMarginRate, tsMs);
    const next = filledRow(row, qty, price, fill.fee, tsMs);
    const change = {
      userId,
      tsMs,
      moves: fill.moves,
      order: { op: 'update' as const, row: next, expectStatus: 'NEW' as const },
      position: fill.position,
    };
    const result = await this.mustApply(change);
    if (!result.ok) return this.expire(row, tsMs);
    this.track(
      next,
      fill.position.next ? await this.store.position(userId, row.symbol) : null,
      userId,
      row.symbol,
    );
    return next;
  }

  /** Ends an open order that can no longer fill (reduce-only without a position, funds gone): EXPIRED. */
  private async expire(row: PaperOrderRow, tsMs: number): Promise<PaperOrderRow> {
    const next: PaperOrderRow = { ...row, status: 'EXPIRED', reserved: '0', updatedMs: tsMs };
    await this.mustApply({
      userId: row.userId,
      tsMs,
      moves: releaseMoves(row),
      order: { op: 'update', row: next, expectStatus: 'NEW' },
    });
    this.track(next, undefined, row.userId, row.symbol);
    return next;
  }

  private onCross(tick: Tick, orders: PaperOrderRow[], liquidations: string[]): void {
    const price = money(tick.markPrice ?? tick.price);
    for (const userId of liquidations) {
      void this.serial(userId, async () => {
        if (await this.liquidateIfDue(userId, tick.symbol, price)) return;
        const position = await this.store.position(userId, tick.symbol);
        if (position) this.index.setPosition(position);
      }).catch(reportError);
    }
    for (const [userId, crossed] of groupBy(orders, (order) => order.userId)) {
      const spot = crossed.filter((order) => order.market === 'spot');
      const futures = crossed.filter((order) => order.market !== 'spot');
      if (spot.length > 0) void this.fillSpot(spot).catch(reportError);
      if (futures.length > 0) {
        const filled = this.serial(userId, () => this.fillFutures(futures));
        for (const order of futures)
          this.onOrder(
            userId,
            order.clientOrderId,
            () => filled.then((rows) => rows.get(order)),
            (row) => row,
          );
        void filled.catch(reportError);
      }
    }
  }

  /**
   * Fills one user's spot orders that a tick crossed, each after the operations queued on it before (a cancel
   * that reached it first wins) but not behind the user's other orders: each moves only what its own order
   * reserved, and balances change by atomic deltas, so it needs no turn of the user's queue, and the bot
   * that looks it up learns of it once it is written. They meet in one write of the store's group commit.
   * Told in the matcher's order.
   */
  private async fillSpot(orders: readonly PaperOrderRow[]): Promise<void> {
    const settled = await Promise.allSettled(
      orders.map((order) => {
        // Placed here and with nothing queued on it, the matcher's row is the stored one (`fillOpenOrder`).
        const key = orderTailKey(order.userId, order.clientOrderId);
        const alone = this.placedHere.has(key) && !this.orderTails.has(key);
        return this.onOrder(
          order.userId,
          order.clientOrderId,
          async (previous) => {
            await previous;
            return this.fillOpenOrder(order.userId, order.clientOrderId, alone ? order : undefined);
          },
          (row) => row,
        );
      }),
    );
    const rows = settled.map((s) => {
      if (s.status === 'fulfilled') return s.value;
      reportError(s.reason);
      return undefined;
    });
    this.told(rows);
  }

  /**
   * Fills one user's futures orders that a tick crossed, one after another in one turn of the user's queue:
   * each moves the position the next one reads, and the user's other futures orders read it too.
   */
  private async fillFutures(
    orders: readonly PaperOrderRow[],
  ): Promise<Map<PaperOrderRow, PaperOrderRow | undefined>> {
    const rows = new Map<PaperOrderRow, PaperOrderRow | undefined>();
    for (const order of orders)
      rows.set(
        order,
        await this.fillOpenOrder(order.userId, order.clientOrderId).catch(
          (error: unknown) => void reportError(error),
        ),
      );
    this.told([...rows.values()]);
    return rows;
  }

  /** The matcher's view kept in step with filled orders, and the listeners told, in the matcher's order. */
  private told(rows: readonly (PaperOrderRow | undefined)[]): void {
    for (const row of rows) {
      if (row) this.track(row, undefined, row.userId, row.symbol);
      if (row && row.status !== 'NEW')
        this.emit({ type: 'order', userId: row.userId, order: publicOrder(row) });
    }
  }
}

/** An order's key in `orderTails`: the user and the client order id. */
const orderTailKey = (userId: string, clientOrderId: string) => `${userId}\u0000${clientOrderId}`;

function reportError(error: unknown): void {
  console.error('paper exchange tick processing failed', error);
}
