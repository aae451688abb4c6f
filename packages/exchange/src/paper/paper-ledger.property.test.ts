import { money } from '@gridbot/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExchangeError } from '../exchange-error';
import type { Exchange } from '../exchange-port';
import { ManualFeed } from '../testing/manual-feed';
import { MemoryPaperStore } from './memory-paper-store';
import { PaperExchange } from './paper-exchange';

type Op =
  | { kind: 'price'; symbol: 'BTCUSDT' | 'ETHUSDT'; market: 'spot' | 'future'; price: number }
  | {
      kind: 'spot';
      symbol: 'BTCUSDT' | 'ETHUSDT';
      side: 'buy' | 'sell';
      limit: boolean;
      qty: number;
      offsetPct: number;
    }
  | { kind: 'future'; side: 'buy' | 'sell'; limit: boolean; qty: number; offsetPct: number; leverage: number }
  | { kind: 'cancel'; index: number }
  | { kind: 'transfer'; toFutures: boolean; amount: number }
  | { kind: 'convert'; asset: 'BTC' | 'ETH' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('price' as const),
    symbol: fc.constantFrom('BTCUSDT' as const, 'ETHUSDT' as const),
    market: fc.constantFrom('spot' as const, 'future' as const),
    price: fc.integer({ min: 800, max: 1200 }).map((permille) => permille / 1000),
  }),
  fc.record({
    kind: fc.constant('spot' as const),
    symbol: fc.constantFrom('BTCUSDT' as const, 'ETHUSDT' as const),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    limit: fc.boolean(),
    qty: fc.integer({ min: 1, max: 2000 }).map((n) => n / 10_000),
    offsetPct: fc.integer({ min: -500, max: 500 }).map((bp) => bp / 100),
  }),
  fc.record({
    kind: fc.constant('future' as const),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    limit: fc.boolean(),
    qty: fc.integer({ min: 1, max: 50 }).map((n) => n / 1000),
    offsetPct: fc.integer({ min: -500, max: 500 }).map((bp) => bp / 100),
    leverage: fc.integer({ min: 1, max: 10 }),
  }),
  fc.record({ kind: fc.constant('cancel' as const), index: fc.nat(20) }),
  fc.record({
    kind: fc.constant('transfer' as const),
    toFutures: fc.boolean(),
    amount: fc.integer({ min: 1, max: 4000 }),
  }),
  fc.record({
    kind: fc.constant('convert' as const),
    asset: fc.constantFrom('BTC' as const, 'ETH' as const),
  }),
);

const BASE: Record<string, number> = { BTCUSDT: 50_000, ETHUSDT: 2_000 };

async function run(ex: Exchange, feed: ManualFeed, ops: Op[]): Promise<void> {
  let seq = 0;
  const ids: string[] = [];
  for (const o of ops) {
    seq += 1;
    try {
      if (o.kind === 'price') feed.setPrice(o.symbol, o.market, String(BASE[o.symbol]! * o.price));
      else if (o.kind === 'spot' || o.kind === 'future') {
        const market = o.kind === 'spot' ? 'spot' : 'future';
        const symbol = o.kind === 'spot' ? o.symbol : 'BTCUSDT';
        if (o.kind === 'future') await ex.setLeverage(symbol, o.leverage).catch(() => undefined);
        const last = Number(feed.lastPrice(symbol, market));
        const clientOrderId = `p-${seq}`;
        ids.push(`${market}:${symbol}:${clientOrderId}`);
        await ex.placeOrder({
          market,
          symbol,
          side: o.side,
          type: o.limit ? 'limit' : 'market',
          clientOrderId,
          quantity: o.qty.toFixed(6),
          ...(o.limit ? { price: (last * (1 + o.offsetPct / 100)).toFixed(2) } : {}),
        });
      } else if (o.kind === 'cancel') {
        const id = ids[o.index % Math.max(ids.length, 1)];
        if (id) {
          const [market, symbol, clientOrderId] = id.split(':') as ['spot' | 'future', string, string];
          await ex.cancelOrder(market, symbol, clientOrderId);
        }
      } else if (o.kind === 'transfer') {
        await ex.transfer(o.toFutures ? 'spot_to_future' : 'future_to_spot', o.amount.toFixed(2));
      } else {
        await ex.convertToUsdt(o.asset);
      }
    } catch (error) {
      if (!(error instanceof ExchangeError) || error.kind !== 'rejected') throw error;
    }
  }
}

describe('paper ledger', () => {
  it('after any sequence of operations every balance equals the sum of its ledger and none is negative', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 40, size: 'max' }), async (ops) => {
        const feed = new ManualFeed({
          'spot:BTCUSDT': '50000',
          'future:BTCUSDT': '50000',
          'spot:ETHUSDT': '2000',
        });
        const store = new MemoryPaperStore();
        const paper = new PaperExchange({
          store,
          feed,
          startFunds: [
            { wallet: 'spot', asset: 'USDT', amount: '10000' },
            { wallet: 'spot', asset: 'BTC', amount: '0.1' },
            { wallet: 'future', asset: 'USDT', amount: '3000' },
          ],
        });
        await paper.start();
        const ex = paper.forUser('prop');
        await run(ex, feed, ops);
        await ex.balances('spot'); // queued behind every tick-driven fill of this user
        const ledger = await store.ledger('prop');
        const balances = await store.balances('prop');
        for (const b of balances) {
          expect(money(b.free).isNegative() || money(b.locked).isNegative()).toBe(false);
          const sum = ledger
            .filter((row) => row.wallet === b.wallet && row.asset === b.asset)
            .reduce((acc, row) => acc.plus(row.amount), money(0));
          expect(sum.toFixed()).toBe(money(b.free).plus(b.locked).toFixed());
        }
        // What is locked is exactly what open orders reserve plus the margin of open positions.
        const open = await store.openOrders({ userId: 'prop' });
        const positions = await store.positions({ userId: 'prop' });
        for (const b of balances) {
          const reserved = open
            .filter((o) => o.market === b.wallet && o.reservedAsset === b.asset)
            .reduce((acc, o) => acc.plus(o.reserved), money(0));
          const margin =
            b.wallet === 'future' && b.asset === 'USDT'
              ? positions.reduce((acc, p) => acc.plus(p.isolatedMargin), money(0))
              : money(0);
          expect(money(b.locked).toFixed()).toBe(reserved.plus(margin).toFixed());
        }
        await paper.stop();
      }),
      { numRuns: 60 },
    );
  });
});
