import { money } from '@gridbot/shared';
import { describe, expect, it, vi } from 'vitest';
import { ExchangeError } from '../exchange-error';
import { ManualFeed } from '../testing/manual-feed';
import { MemoryPaperStore } from './memory-paper-store';
import { PaperExchange } from './paper-exchange';
import type { ApplyResult, PaperChange } from './paper-store';

function setup<S extends MemoryPaperStore>(startUsdt = '10000', store: S = new MemoryPaperStore() as S) {
  const feed = new ManualFeed({ 'spot:BTCUSDT': '50000', 'future:BTCUSDT': '50000' });
  const paper = new PaperExchange({
    store,
    feed,
    startFunds: [{ wallet: 'spot', asset: 'USDT', amount: startUsdt }],
  });
  return { feed, store, paper };
}

describe('PaperExchange under concurrent calls of one user', () => {
  it('fills only what the balance pays for when many orders race', async () => {
    const { paper, store } = setup('1010');
    const ex = paper.forUser('u');
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        ex.placeOrder({
          market: 'spot',
          symbol: 'BTCUSDT',
          side: 'buy',
          type: 'market',
          clientOrderId: `r-${i}`,
          quantity: '0.002',
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected.every((r) => r.reason instanceof ExchangeError && r.reason.code === -2010)).toBe(true);
    const usdt = (await store.balances('u')).find((b) => b.asset === 'USDT');
    // Each buy pays its 100 USDT quote; its fee comes out of the BTC bought (docs/trading-rules.md §3).
    expect(money(usdt!.free).toNumber()).toBeCloseTo(1010 - 10 * 100, 8);
  });

  it('places one order for one client order id sent five times at once', async () => {
    const { paper, store } = setup();
    const ex = paper.forUser('u');
    const input = {
      market: 'spot',
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'market',
      clientOrderId: 'same',
      quantity: '0.01',
    } as const;
    const orders = await Promise.all(Array.from({ length: 5 }, () => ex.placeOrder(input)));
    expect(new Set(orders.map((o) => o.exchangeOrderId)).size).toBe(1);
    // 0.01 BTC less its 0.1 % fee, once.
    expect((await store.balances('u')).find((b) => b.asset === 'BTC')?.free).toBe('0.00999');
  });

  it('funds a new account once with the configured start amount', async () => {
    const { paper, store } = setup('2500');
    const ex = paper.forUser('fresh');
    await Promise.all([ex.balances('spot'), ex.balances('future'), ex.spotAssets()]);
    expect(await store.ledger('fresh')).toMatchObject([{ kind: 'deposit', amount: '2500' }]);
  });

  it('resumes open limit orders from the store after a restart', async () => {
    const { feed, store } = setup();
    const first = new PaperExchange({ store, feed });
    await first.start();
    await first
      .forUser('u')
      .placeOrder({
        market: 'spot',
        symbol: 'BTCUSDT',
        side: 'sell',
        type: 'limit',
        clientOrderId: 'keep',
        quantity: '0.01',
        price: '51000',
      })
      .catch((error: ExchangeError) => expect(error.code).toBe(-2010));
    await first.fund('u', 'spot', 'BTC', '0.01');
    await first.forUser('u').placeOrder({
      market: 'spot',
      symbol: 'BTCUSDT',
      side: 'sell',
      type: 'limit',
      clientOrderId: 'keep2',
      quantity: '0.01',
      price: '51000',
    });
    await first.stop();
    const second = new PaperExchange({ store, feed });
    await second.start();
    const events: string[] = [];
    second.on((event) => event.type === 'order' && events.push(event.order.clientOrderId));
    feed.setPrice('BTCUSDT', 'spot', '51000');
    await second.forUser('u').balances('spot');
    expect(events).toEqual(['keep2']);
    expect((await store.order('u', 'keep2'))?.status).toBe('FILLED');
  });

  it("looks an order up, and fills it on a tick, without waiting behind the user's other orders", async () => {
    const { feed, store, paper } = setup('10000', new GatedStore('slow'));
    await paper.start();
    const ex = paper.forUser('u');
    await ex.placeOrder(limitBuy('b1', '49000'));
    const slow = ex.placeOrder({ ...limitBuy('slow', '49000'), type: 'market', price: undefined });
    await store.reached;
    // The market order waits on the store and the user's queue behind it; the look-up does not.
    const found = await ex.fetchOrder('spot', 'BTCUSDT', 'b1');
    expect(found.found && found.order.status).toBe('NEW');
    // Nor does the fill of a tick that crosses the resting order: it moves only what that order reserved.
    feed.setPrice('BTCUSDT', 'spot', '48500');
    const filled = await ex.fetchOrder('spot', 'BTCUSDT', 'b1');
    expect(filled.found && filled.order.status).toBe('FILLED');
    store.open();
    expect((await slow).status).toBe('FILLED');
    await paper.stop();
  });

  it('answers the look-up of an order a tick crossed with the row its fill wrote, once written', async () => {
    const { feed, store, paper } = setup('10000', new GatedStore());
    await paper.start();
    const ex = paper.forUser('u');
    await ex.placeOrder(limitBuy('b1', '49000'));
    // The placement settled (nothing else queued on the order) before the tick.
    await new Promise((resolve) => setImmediate(resolve));
    store.reads = 0;
    feed.setPrice('BTCUSDT', 'spot', '48500');
    // Asked right after the tick, before the fill is written: the answer is the fill, not the order resting.
    const found = await ex.fetchOrder('spot', 'BTCUSDT', 'b1');
    expect(found.found && found.order).toMatchObject({
      status: 'FILLED',
      averagePrice: '49000',
      fee: '0.00001',
    });
    // No read at all: the fill writes the row the matcher holds, the look-up answers what the fill wrote.
    expect(store.reads).toBe(0);
    await paper.stop();
  });

  it('reads an order it did not place before writing its fill', async () => {
    const { feed, store, paper } = setup('10000', new GatedStore());
    await paper.start();
    // Placed by another process over the same store; this one's matcher learns of it when it loads open orders.
    await new PaperExchange({ store, feed }).forUser('u').placeOrder(limitBuy('b1', '49000'));
    await paper.start();
    store.reads = 0;
    feed.setPrice('BTCUSDT', 'spot', '48500');
    const found = await paper.forUser('u').fetchOrder('spot', 'BTCUSDT', 'b1');
    expect(found.found && found.order.status).toBe('FILLED');
    // Its row is read first: that process may be filling it too.
    expect(store.reads).toBe(1);
    await paper.stop();
  });

  it('fills no order another process cancelled first, and answers its cancel', async () => {
    const { feed, store, paper } = setup('10000', new GatedStore());
    await paper.start();
    await paper.forUser('u').placeOrder(limitBuy('b1', '49000'));
    // Another process over the same store cancels it; this one's matcher still holds it open.
    const other = new PaperExchange({ store, feed });
    await other.forUser('u').cancelOrder('spot', 'BTCUSDT', 'b1');
    const errors: unknown[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args) => void errors.push(args));
    feed.setPrice('BTCUSDT', 'spot', '48500');
    const found = await paper.forUser('u').fetchOrder('spot', 'BTCUSDT', 'b1');
    spy.mockRestore();
    expect(found.found && found.order.status).toBe('CANCELED');
    expect(errors).toEqual([]);
    // The cancel released the 490 USDT it held, once; nothing was bought.
    const balances = await store.balances('u');
    expect(balances.find((b) => b.asset === 'USDT')).toMatchObject({ free: '10000', locked: '0' });
    expect(balances.find((b) => b.asset === 'BTC')).toBeUndefined();
    await paper.stop();
  });
});

const limitBuy = (clientOrderId: string, price: string) =>
  ({
    market: 'spot',
    symbol: 'BTCUSDT',
    side: 'buy',
    type: 'limit',
    clientOrderId,
    quantity: '0.01',
    price,
  }) as const;

/** A memory store whose write of one order waits until `open()`, and which counts its reads of orders. */
class GatedStore extends MemoryPaperStore {
  reads = 0;
  private release: () => void = () => undefined;
  private readonly gate = new Promise<void>((resolve) => {
    this.release = resolve;
  });
  private arrived: () => void = () => undefined;
  /** Settles once the gated order's write reached the store. */
  readonly reached = new Promise<void>((resolve) => {
    this.arrived = resolve;
  });

  constructor(private readonly gated?: string) {
    super();
  }

  open(): void {
    this.release();
  }

  override async order(userId: string, clientOrderId: string) {
    this.reads += 1;
    return super.order(userId, clientOrderId);
  }

  override async apply(change: PaperChange): Promise<ApplyResult> {
    if (change.order?.row.clientOrderId === this.gated) {
      this.arrived();
      await this.gate;
    }
    return super.apply(change);
  }
}
