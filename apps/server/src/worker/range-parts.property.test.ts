/**
 * A resting order booked in parts as its trades come (docs/trading-rules.md §2.6 "Live", §3 "Fills come with
 * their fees"): however the exchange's trades are split between look-ups, and whatever asset each fee is
 * taken in, the parts booked add up to the trades: quantity, quote and each asset's commission, none twice.
 */
import type { RangeOrder } from '@gridbot/engine';
import type { Order, OrderTrade } from '@gridbot/exchange';
import { money } from '@gridbot/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unbookedPart } from './range-parts';

const resting: RangeOrder = { seq: 7, level: 1, side: 'buy', price: 1950, qty: 10, cost: 0 };

/** The exchange's view of the order once `trades` have executed (a queried order with its trade list). */
function orderWith(trades: readonly OrderTrade[], final: boolean): Order {
  const sum = (pick: (t: OrderTrade) => string) => trades.reduce((s, t) => s.plus(pick(t)), money(0));
  return {
    market: 'spot',
    symbol: 'ETHUSDT',
    clientOrderId: 'x-7',
    exchangeOrderId: '1',
    side: 'buy',
    type: 'limit',
    status: final ? 'FILLED' : 'PARTIALLY_FILLED',
    price: '1950',
    quantity: '10',
    filledQuantity: sum((t) => t.qty).toFixed(),
    filledQuote: sum((t) => t.quote).toFixed(),
    averagePrice: undefined,
    // What the adapter reports for the whole order: the sum of the first trade's asset (feeOfTrades).
    fee: sum((t) => (t.feeAsset === trades[0]?.feeAsset ? t.fee : '0')).toFixed(),
    feeAsset: trades[0]?.feeAsset ?? 'USDT',
    createdMs: 0,
    updatedMs: 0,
    trades: [...trades],
  };
}

const trade = fc.record({
  qtyUnits: fc.integer({ min: 1, max: 50 }),
  feeUnits: fc.integer({ min: 0, max: 100_000 }),
  bnb: fc.boolean(),
});

describe('a resting order booked in parts from its trades', () => {
  it('books exactly the trades, each once, with each fee in its own asset', () => {
    fc.assert(
      fc.property(
        fc.array(trade, { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 6 }),
        (rows, cuts) => {
          const trades: OrderTrade[] = rows.map((r, i) => ({
            id: String(100 + i),
            qty: money(r.qtyUnits).dividedBy(100).toFixed(),
            quote: money(r.qtyUnits).dividedBy(100).times(1950).toFixed(),
            fee: money(r.feeUnits).dividedBy(1e8).toFixed(),
            feeAsset: r.bnb ? 'BNB' : 'ETH',
          }));
          // Look-ups after the first `cut` trades, in time order, and a last one after all of them.
          const points = [...new Set([...cuts.map((c) => Math.min(c, trades.length)), trades.length])].sort(
            (a, b) => a - b,
          );
          let order = resting;
          const booked = { qty: money(0), quote: money(0), fee: new Map<string, ReturnType<typeof money>>() };
          for (const k of points) {
            const part = unbookedPart(orderWith(trades.slice(0, k), k === trades.length), order, 'ETH');
            if (part === undefined) continue;
            booked.qty = booked.qty.plus(part.filledQuantity);
            booked.quote = booked.quote.plus(part.filledQuote);
            booked.fee.set(part.feeAsset, (booked.fee.get(part.feeAsset) ?? money(0)).plus(part.fee));
            // The engine adds the part to the order's booked part (`filled`).
            const f = order.filled;
            order = {
              ...order,
              filled: {
                qty: money(f?.qty ?? 0)
                  .plus(part.filledQuantity)
                  .toNumber(),
                quote: money(f?.quote ?? 0)
                  .plus(part.filledQuote)
                  .toNumber(),
                fee: money(f?.fee ?? 0)
                  .plus(part.fee)
                  .toNumber(),
              },
            };
          }
          const all = { qty: money(0), quote: money(0), fee: new Map<string, string>() };
          for (const t of trades) {
            all.qty = all.qty.plus(t.qty);
            all.quote = all.quote.plus(t.quote);
            all.fee.set(
              t.feeAsset,
              money(all.fee.get(t.feeAsset) ?? 0)
                .plus(t.fee)
                .toFixed(),
            );
          }
          expect(booked.qty.toFixed()).toBe(all.qty.toFixed());
          expect(booked.quote.toFixed()).toBe(all.quote.toFixed());
          // Each asset's commission, as the trades charged it (a part's trades share one asset in practice;
          // a part mixing two books the first one's, which this checks only when none mixes).
          const mixed = points.some((k, i) => {
            const from = i === 0 ? 0 : (points[i - 1] as number);
            return new Set(trades.slice(from, k).map((t) => t.feeAsset)).size > 1;
          });
          if (!mixed)
            for (const [asset, fee] of all.fee) expect(booked.fee.get(asset)?.toFixed() ?? '0').toBe(fee);
        },
      ),
      { numRuns: 300 },
    );
  });
});
