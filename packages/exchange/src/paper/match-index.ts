import type { MarketKind } from '@gridbot/shared';
import type { MarketFeed, Tick } from '../market-feed';
import type { PaperOrderRow, PaperPositionRow } from './paper-store';

type CrossHandler = (tick: Tick, orders: PaperOrderRow[], liquidations: string[]) => void;

const streamKey = (symbol: string, market: MarketKind) => `${market}:${symbol}`;
const orderKey = (row: Pick<PaperOrderRow, 'userId' | 'clientOrderId'>) =>
  `${row.userId}\u0000${row.clientOrderId}`;

/**
 * In-memory view of what a tick can trigger: open limit orders by stream and liquidation prices of
 * positions by symbol. Subscribes to a stream's ticks once something there can trigger. A triggered
 * entry is removed and handed over; the paper exchange re-adds it if the stored row is still open.
 * Listeners are synchronous on purpose: the feed coalesces slow async subscribers, and a skipped tick
 * must never skip a crossing.
 */
export class MatchIndex {
  private readonly orders = new Map<string, Map<string, PaperOrderRow>>();
  private readonly liquidations = new Map<string, Map<string, { price: number; side: 'long' | 'short' }>>();
  private readonly subscriptions = new Map<string, () => void>();
  /** Each stream's previous tick price: a tick is the line from it, on which crossed orders fill in order. */
  private readonly previous = new Map<string, number>();
  private running = false;

  constructor(
    private readonly feed: MarketFeed,
    private readonly onCross: CrossHandler,
  ) {}

  start(): void {
    this.running = true;
    for (const key of this.orders.keys()) this.ensureSubscribed(key);
    for (const symbol of this.liquidations.keys()) this.ensureSubscribed(streamKey(symbol, 'future'));
  }

  stop(): void {
    this.running = false;
    for (const unsubscribe of this.subscriptions.values()) unsubscribe();
    this.subscriptions.clear();
  }

  addOrder(row: PaperOrderRow): void {
    if (row.type !== 'limit' || row.status !== 'NEW' || row.price === undefined) return;
    const key = streamKey(row.symbol, row.market);
    let byOrder = this.orders.get(key);
    if (!byOrder) {
      byOrder = new Map();
      this.orders.set(key, byOrder);
    }
    byOrder.set(orderKey(row), row);
    this.ensureSubscribed(key);
  }

  removeOrder(row: PaperOrderRow): void {
    this.orders.get(streamKey(row.symbol, row.market))?.delete(orderKey(row));
  }

  setPosition(position: PaperPositionRow): void {
    let byUser = this.liquidations.get(position.symbol);
    if (!byUser) {
      byUser = new Map();
      this.liquidations.set(position.symbol, byUser);
    }
    byUser.set(position.userId, { price: Number(position.liquidationPrice), side: position.side });
    this.ensureSubscribed(streamKey(position.symbol, 'future'));
  }

  removePosition(userId: string, symbol: string): void {
    this.liquidations.get(symbol)?.delete(userId);
  }

  private ensureSubscribed(key: string): void {
    if (!this.running || this.subscriptions.has(key)) return;
    const [market, symbol] = key.split(':') as [MarketKind, string];
    this.subscriptions.set(
      key,
      this.feed.subscribe(symbol, market, (tick) => this.onTick(tick)),
    );
  }

  private onTick(tick: Tick): void {
    const price = Number(tick.price);
    const crossed: PaperOrderRow[] = [];
    const key = streamKey(tick.symbol, tick.market);
    const from = this.previous.get(key);
    this.previous.set(key, price);
    const byOrder = this.orders.get(key);
    if (byOrder) {
      for (const [id, row] of byOrder) {
        const limit = Number(row.price);
        if (row.side === 'buy' ? price <= limit : price >= limit) {
          crossed.push(row);
          byOrder.delete(id);
        }
      }
      // Path order (docs/trading-rules.md §2.6): the price moved on a line from the previous tick, reaching the
      // nearest limit first (a fall fills the highest buy first). Without a previous tick, the farthest from
      // this price was passed first.
      if (crossed.length > 1) {
        const along = (row: PaperOrderRow) =>
          from === undefined ? -Math.abs(Number(row.price) - price) : Math.abs(Number(row.price) - from);
        crossed.sort((a, b) => along(a) - along(b));
      }
    }
    const due: string[] = [];
    if (tick.market === 'future') {
      const byUser = this.liquidations.get(tick.symbol);
      if (byUser) {
        // Liquidation is on the mark price (docs/trading-rules.md §2.2), the last price where the feed has none.
        const mark = tick.markPrice === undefined ? price : Number(tick.markPrice);
        // A long is liquidated at or below its price, a short at or above it; the stored row decides (exact).
        for (const [userId, liq] of byUser) {
          if (liq.price > 0 && (liq.side === 'long' ? mark <= liq.price : mark >= liq.price)) {
            due.push(userId);
            byUser.delete(userId);
          }
        }
      }
    }
    if (crossed.length > 0 || due.length > 0) this.onCross(tick, crossed, due);
  }
}
