import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findMaintBrackets } from './leverage-brackets';
import {
  addToLong,
  initialMargin,
  type LongPosition,
  liquidationPrice,
  maintenanceFor,
  reduceLongPosition,
  shortLiquidationPrice,
} from './liquidation';

const BTC = findMaintBrackets('BTCUSDT');
const FLAT: LongPosition = { qty: 0, entryNotional: 0, margin: 0 };

describe('liquidation price of an isolated long (Binance brackets)', () => {
  it('after a buy: 0.01 BTC at 60,000 with 10× (bracket 1: 0.4 %, cum 0)', () => {
    const pos = addToLong(FLAT, '0.01', '600', initialMargin('600', 10));
    // (600 − 60 − 0) / (0.01 × 0.996) = 54216.867469879518…, rounded up to 8 decimals.
    expect(liquidationPrice(pos, BTC).toFixed()).toBe('54216.86746988');
  });

  it('after a partial sell the average entry stays and margin is released in proportion', () => {
    const pos = addToLong(FLAT, '0.01', '600', '60');
    const { rest, marginReleased, costReleased } = reduceLongPosition(pos, '0.004');
    expect(marginReleased.toFixed()).toBe('24');
    expect(costReleased.toFixed()).toBe('240');
    // (360 − 36) / (0.006 × 0.996): the same price as before the sell.
    expect(liquidationPrice(rest, BTC).toFixed()).toBe('54216.86746988');
  });

  it('after a rebuy the entry is the average of all buys', () => {
    const afterSell = reduceLongPosition(addToLong(FLAT, '0.01', '600', '60'), '0.004').rest;
    const pos = addToLong(afterSell, '0.005', '250', '25');
    // (610 − 61) / (0.011 × 0.996) = 50109.529025191675…
    expect(liquidationPrice(pos, BTC).toFixed()).toBe('50109.5290252');
  });

  it('uses the bracket of the position notional: 2 BTC at 50,000 is in bracket 2 (0.5 %, cum 50)', () => {
    expect(maintenanceFor(BTC, 100_000)).toEqual({ rate: 0.005, amount: 50 });
    const pos = addToLong(FLAT, '2', '100000', '10000');
    // (100000 − 10000 − 50) / (2 × 0.995) = 45201.005025125628…
    expect(liquidationPrice(pos, BTC).toFixed()).toBe('45201.00502513');
  });

  it('uses 0.5 % without maintenance amount where brackets are unknown', () => {
    expect(maintenanceFor(undefined, 1e12)).toEqual({ rate: 0.005, amount: 0 });
    const pos = addToLong(FLAT, '10', '1000', '200');
    expect(liquidationPrice(pos, undefined).toFixed()).toBe('80.40201006');
  });

  it('is 0 when flat or at 1× (a 1× long cannot be liquidated)', () => {
    expect(liquidationPrice(FLAT, BTC).toFixed()).toBe('0');
    expect(liquidationPrice(addToLong(FLAT, '1', '60000', '60000'), BTC).toFixed()).toBe('0');
  });

  it('property: at the liquidation price equity equals the maintenance margin (within rounding)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 20_000, max: 120_000 }),
        fc.integer({ min: 2, max: 125 }),
        (milli, price, leverage) => {
          const qty = milli / 1000;
          const notional = qty * price;
          const margin = initialMargin(notional, leverage).toNumber();
          const liq = liquidationPrice({ qty, entryNotional: notional, margin }, BTC).toNumber();
          if (liq === 0) return;
          const { rate, amount } = maintenanceFor(BTC, notional);
          const equity = margin + qty * (liq - price);
          const maintenance = qty * liq * rate - amount;
          expect(Math.abs(equity - maintenance)).toBeLessThan(1e-6 * Math.max(1, notional));
        },
      ),
    );
  });

  it('short: 10 at 100 with 200 margin at 0.5 % is liquidated at (1000 + 200) / (10 × 1.005) = 119.40298507', () => {
    const pos = { qty: '10', entryNotional: '1000', margin: '200' };
    expect(shortLiquidationPrice(pos, undefined).toFixed()).toBe('119.40298507');
    expect(shortLiquidationPrice(FLAT, undefined).toFixed()).toBe('0');
  });
});
