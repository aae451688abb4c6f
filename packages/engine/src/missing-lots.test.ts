/**
 * Coins sold outside the platform: dropping the missing quantity, or buying it again. Rules: step 0.001.
 * Lots: grid 1 of 5 at 100 (500 + fee 0.5 USDT) and grid 2 of 5.102 at 98 (499.996 + fee 0.499996 USDT).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GridBotState } from './core/grid-bot.state';
import { applyFill, applyIntentFailed, step } from './engine';
import { dropMissingLots, missingQty, rebuyMissing } from './missing-lots';
import { money } from './money';
import { type CycleState, createCycle } from './strategies/cycle/cycle.state';
import { TEST_RULES } from './testing/harness';
import { multigridBot } from './testing/strategies';
import type { MarketBuy } from './types';

const T = 1_700_000_000_000;

function twoLots(): GridBotState {
  const bot = multigridBot({ alloc: [0.5, 0.5], buy: [2], buyUp: [0], tp: [2, 2], tpDown: [0, 0] });
  let r = step(bot, { price: 100, timeMs: T }, TEST_RULES);
  const first = r.intents[0] as MarketBuy;
  let state = applyFill(r.state, {
    seq: first.seq,
    side: 'buy',
    price: 100,
    qty: 5,
    quote: 500,
    fee: 0.5,
    timeMs: T,
  });
  r = step(state, { price: 98, timeMs: T + 1 }, TEST_RULES);
  const second = r.intents[0] as MarketBuy;
  expect(second.qty).toBe('5.102');
  state = applyFill(r.state, {
    seq: second.seq,
    side: 'buy',
    price: 98,
    qty: 5.102,
    quote: 499.996,
    fee: 0.499996,
    timeMs: T + 1,
  });
  return state;
}

describe('the quantity missing from the account', () => {
  it('is what the lots hold beyond the account, never below zero', () => {
    const state = twoLots();
    expect(missingQty(state, 6)).toBe(4.102);
    expect(missingQty(state, 10.102)).toBe(0);
    expect(missingQty(state, 12)).toBe(0);
  });
});

describe('dropping the missing lots', () => {
  it('forgets the newest quantity first and books it at the current price, like dust', () => {
    const before = twoLots();
    const { state, closed } = dropMissingLots(before, 6, 97, T + 2);
    // 4.102 of grid 2's 5.102 at 98: cost 4.102 × 98 = 401.996, fee share 0.401996; worth 4.102 × 97 = 397.894.
    expect(closed).toEqual([
      expect.objectContaining({
        grid: 2,
        qty: 4.102,
        buyQuote: 401.996,
        buyFee: 0.401996,
        sellQuote: 397.894,
        sellFee: 0,
        profit: -4.503996,
        reason: 'missing',
      }),
    ]);
    expect(state.lots.map((l) => [l.grid, l.qty, l.quote, l.fee])).toEqual([
      [1, 5, 500, 0.5],
      [2, 1, 98, 0.098],
    ]);
    expect(state.account.openQty).toBe(6);
    expect(state.account.bookedProfit).toBe(-4.503996);
    expect(state.account.missingQty).toBe(4.102);
    expect(state.account.trades).toBe(before.account.trades);
  });

  it('drops whole lots when the account holds less than the oldest', () => {
    const { state, closed } = dropMissingLots(twoLots(), 2, 97, T + 2);
    // Grid 2 whole (5.102 at 98 → 97: −5.102 − 0.499996) and 3 of grid 1 (300 + 0.3 → 291).
    expect(closed.map((c) => [c.grid, c.qty, c.profit])).toEqual([
      [2, 5.102, -5.601996],
      [1, 3, -9.3],
    ]);
    expect(state.lots.map((l) => [l.grid, l.qty, l.quote, l.fee])).toEqual([[1, 2, 200, 0.2]]);
    expect(state.account.bookedProfit).toBe(-14.901996);
  });

  it('changes nothing when nothing is missing', () => {
    const before = twoLots();
    expect(dropMissingLots(before, 10.102, 97, T + 2).state).toBe(before);
  });
});

describe('buying the missing quantity again', () => {
  it('issues a market buy of the missing quantity whose fill tops up the newest lot', () => {
    const before = twoLots();
    const { state, intent } = rebuyMissing(before, 6, 97, TEST_RULES);
    expect(intent).toEqual({
      type: 'MarketBuy',
      seq: 3,
      grid: 2,
      qty: '4.102',
      quoteAmount: '397.894',
      price: 97,
      missingQty: '4.102',
    });
    expect(state.pending.map((p) => p.intent.seq)).toEqual([3]);
    // Binance takes the fee (0.1 %) from the ETH bought: 4.102 − 0.004102 = 4.097898 arrive.
    const after = applyFill(state, {
      seq: 3,
      side: 'buy',
      price: 97,
      qty: 4.102,
      quote: 397.894,
      fee: 0.004102,
      feeAsset: 'base',
      timeMs: T + 3,
    });
    // The account now holds 6 + 4.097898 = 10.097898; grid 2 holds 5.102 − 0.004102 and cost 499.996 + 397.894.
    expect(after.lots.map((l) => [l.grid, l.qty, l.quote, l.fee])).toEqual([
      [1, 5, 500, 0.5],
      [2, 5.097898, 897.89, 0.499996],
    ]);
    expect(after.account.openQty).toBe(10.097898);
    expect(after.pending).toEqual([]);
    expect(after.account.bookedProfit).toBe(0);
    // The fee in ETH is worth 0.004102 × 97 = 0.397894 USDT.
    expect(after.account.fees).toBe(0.5 + 0.499996 + 0.397894);
  });

  it('rounds the quantity up to the step so the account holds the lots again', () => {
    const { intent } = rebuyMissing(twoLots(), 6.0005, 97, TEST_RULES);
    expect(intent?.qty).toBe('4.102');
    expect(intent?.missingQty).toBe('4.1015');
  });
});

describe('whatever the account still holds', () => {
  it('leaves lots equal to it after a drop, and books exactly their worth at the price less their cost', () => {
    const before = twoLots();
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_102 }).map((n) => n / 1000),
        fc.integer({ min: 1, max: 100_000 }).map((n) => n / 100),
        (held, price) => {
          const { state, closed } = dropMissingLots(before, held, price, T + 2);
          const lots = state.lots.reduce((sum, lot) => sum.plus(lot.qty), money(0));
          expect(lots.toNumber()).toBe(held);
          expect(state.account.openQty).toBe(held);
          // The cost of the lots (quote + fee) is shared between what stays and what was dropped.
          const cost = (lots_: readonly { quote: number; fee: number }[]) =>
            lots_.reduce((sum, lot) => sum.plus(lot.quote).plus(lot.fee), money(0));
          const droppedCost = closed.reduce((sum, c) => sum.plus(c.buyQuote).plus(c.buyFee), money(0));
          expect(cost(state.lots).plus(droppedCost).toNumber()).toBeCloseTo(cost(before.lots).toNumber(), 9);
          const worth = closed.reduce((sum, c) => sum.plus(money(c.qty).times(price)), money(0));
          expect(state.account.bookedProfit).toBeCloseTo(worth.minus(droppedCost).toNumber(), 9);
        },
      ),
    );
  });
});

/** A spot cycle holding 1 coin bought at 100 for 100 USDT (fee 0.1 USDT); it sells at 110. */
function holdingCycle(): CycleState {
  const cycle = createCycle({
    params: { buyPrice: 100, sellPrice: 110, stopLoss: null, cycles: 2, amount: 100 },
    market: 'spot',
    startTimeMs: T,
  });
  const r = step(cycle, { price: 100, timeMs: T }, TEST_RULES);
  const buy = r.intents[0] as MarketBuy;
  return applyFill(r.state, {
    seq: buy.seq,
    side: 'buy',
    price: 100,
    qty: 1,
    quote: 100,
    fee: 0.1,
    timeMs: T,
  });
}

describe('a cycle whose coins were sold outside the platform', () => {
  it('keeps holding the rest after a partial drop, booked at the price', () => {
    const { state, closed } = dropMissingLots(holdingCycle(), 0.4, 95, T + 1);
    // 0.6 of the lot at 100 (60 + fee 0.06) is worth 57 at 95: −3.06.
    expect(closed.map((c) => [c.qty, c.profit])).toEqual([[0.6, -3.06]]);
    expect(state).toMatchObject({ status: 'Holding', cyclesCompleted: 0 });
    expect(state.lots.map((l) => l.qty)).toEqual([0.4]);
    expect(state.account.openQty).toBe(0.4);
    expect(state.account.missingQty).toBe(0.6);
  });

  it('waits to buy again once its whole lot is dropped, without counting a cycle', () => {
    const { state } = dropMissingLots(holdingCycle(), 0, 95, T + 1);
    expect(state).toMatchObject({ status: 'WaitBuy', cyclesCompleted: 0, lots: [] });
    expect(state.account.bookedProfit).toBe(-5.1);
    // At its buy price it buys as a cycle does.
    expect(step(state, { price: 100, timeMs: T + 2 }, TEST_RULES).intents).toHaveLength(1);
  });

  it('re-buys the missing quantity into its lot and keeps holding; a failed re-buy changes nothing', () => {
    const before = holdingCycle();
    const { state, intent } = rebuyMissing(before, 0.4, 95, TEST_RULES);
    expect(intent).toMatchObject({ type: 'MarketBuy', grid: 1, qty: '0.6', missingQty: '0.6' });
    expect(state.status).toBe('Holding');
    // No sale while the re-buy is under way, even at the sell price.
    expect(step(state, { price: 111, timeMs: T + 2 }, TEST_RULES).intents).toEqual([]);
    const after = applyFill(state, {
      seq: intent!.seq,
      side: 'buy',
      price: 95,
      qty: 0.6,
      quote: 57,
      fee: 0.057,
      timeMs: T + 3,
    });
    expect(after).toMatchObject({ status: 'Holding', pending: [], cyclesCompleted: 0 });
    expect(after.lots.map((l) => [l.qty, l.quote])).toEqual([[1, 157]]);
    expect(applyIntentFailed(state, intent!.seq)).toMatchObject({ status: 'Holding', pending: [] });
  });
});
