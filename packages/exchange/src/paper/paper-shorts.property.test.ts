/**
 * Money is conserved on the paper exchange's one-way futures positions: after any sequence of long and short
 * trades (market and limit, reduce-only or not, opening, growing, reducing and flipping), once the position is
 * closed and no order rests, the futures wallet holds its start + Σ sell notional − Σ buy notional − Σ fees.
 * That is margin + realized PnL − fees conserved: every margin locked came back, and the realized PnL of a
 * position opened and closed is what its sells brought in less what its buys cost, however the average entry
 * split it between reductions. Prices stay within ±10 % and leverage at most 3×, so no position is liquidated.
 */
import { money } from '@gridbot/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExchangeError } from '../exchange-error';
import type { Exchange } from '../exchange-port';
import { ManualFeed } from '../testing/manual-feed';
import { MemoryPaperStore } from './memory-paper-store';
import { PaperExchange } from './paper-exchange';

type Op =
  | { kind: 'price'; permille: number }
  | {
      kind: 'order';
      side: 'buy' | 'sell';
      limit: boolean;
      reduceOnly: boolean;
      qty: number;
      offsetPct: number;
    }
  | { kind: 'leverage'; leverage: number }
  | { kind: 'cancel'; index: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('price' as const), permille: fc.integer({ min: 900, max: 1100 }) }),
  fc.record({
    kind: fc.constant('order' as const),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    limit: fc.boolean(),
    reduceOnly: fc.boolean(),
    qty: fc.integer({ min: 1, max: 50 }).map((n) => n / 1000),
    offsetPct: fc.integer({ min: -300, max: 300 }).map((bp) => bp / 100),
  }),
  fc.record({ kind: fc.constant('leverage' as const), leverage: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('cancel' as const), index: fc.nat(20) }),
);

const START = '10000';

async function run(ex: Exchange, feed: ManualFeed, ops: Op[], ids: string[]): Promise<void> {
  for (const [i, o] of ops.entries()) {
    try {
      if (o.kind === 'price') feed.setPrice('BTCUSDT', 'future', String(50 * o.permille));
      else if (o.kind === 'leverage') await ex.setLeverage('BTCUSDT', o.leverage);
      else if (o.kind === 'cancel') {
        const id = ids[o.index % Math.max(ids.length, 1)];
        if (id) await ex.cancelOrder('future', 'BTCUSDT', id);
      } else {
        const last = Number(feed.lastPrice('BTCUSDT', 'future'));
        const clientOrderId = `p-${i}`;
        ids.push(clientOrderId);
        await ex.placeOrder({
          market: 'future',
          symbol: 'BTCUSDT',
          side: o.side,
          type: o.limit ? 'limit' : 'market',
          clientOrderId,
          quantity: o.qty.toFixed(3),
          ...(o.limit ? { price: (last * (1 + o.offsetPct / 100)).toFixed(1) } : {}),
          ...(o.reduceOnly ? { reduceOnly: true } : {}),
        });
      }
    } catch (error) {
      if (!(error instanceof ExchangeError) || error.kind !== 'rejected') throw error;
    }
  }
}

/** Cancels what rests and closes the position reduce-only at the last price. */
async function flatten(ex: Exchange, ids: string[]): Promise<void> {
  for (const order of await ex.openOrders('future', 'BTCUSDT')) {
    await ex.cancelOrder('future', 'BTCUSDT', order.clientOrderId);
  }
  const position = await ex.position('BTCUSDT');
  if (!position) return;
  ids.push('close');
  await ex.placeOrder({
    market: 'future',
    symbol: 'BTCUSDT',
    side: position.side === 'long' ? 'sell' : 'buy',
    type: 'market',
    clientOrderId: 'close',
    quantity: position.quantity,
    reduceOnly: true,
  });
}

describe('paper one-way futures positions', () => {
  it('conserve margin + realized PnL − fees over any sequence of long and short trades', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 40, size: 'max' }), async (ops) => {
        const feed = new ManualFeed({ 'future:BTCUSDT': '50000' });
        const store = new MemoryPaperStore();
        const paper = new PaperExchange({
          store,
          feed,
          startFunds: [{ wallet: 'future', asset: 'USDT', amount: START }],
        });
        await paper.start();
        const ex = paper.forUser('prop');
        const ids: string[] = [];
        await run(ex, feed, ops, ids);
        await flatten(ex, ids);
        expect(await ex.positions()).toEqual([]);
        let expected = money(START);
        for (const id of ids) {
          const found = await ex.fetchOrder('future', 'BTCUSDT', id);
          if (!found.found) continue;
          const { side, filledQuote, fee } = found.order;
          expected = (side === 'sell' ? expected.plus(filledQuote) : expected.minus(filledQuote)).minus(fee);
        }
        const usdt = (await store.balances('prop')).find((b) => b.wallet === 'future' && b.asset === 'USDT')!;
        expect(usdt.locked).toBe('0');
        expect(money(usdt.free).toFixed()).toBe(expected.toFixed());
        const ledger = await store.ledger('prop');
        expect(ledger.some((row) => row.kind === 'liquidation')).toBe(false);
        const sum = ledger.reduce((acc, row) => acc.plus(row.amount), money(0));
        expect(sum.toFixed()).toBe(money(usdt.free).toFixed());
        await paper.stop();
      }),
      { numRuns: 80 },
    );
  });
});
