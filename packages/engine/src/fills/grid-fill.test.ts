/**
 * The runtime contract: pending intents, idempotent fills, fills that differ from the intent (base-asset
 * fees, partial fills), failed intents. Rules: step 0.001, fee 0.1 %.
 */
import { describe, expect, it } from 'vitest';
import { setPriceTriggers, stopAndSell } from '../commands';
import { applyFill, applyFillDetailed, applyIntentDustDetailed, applyIntentFailed, step } from '../engine';
import { InvariantError } from '../errors';
import { TEST_RULES } from '../testing/harness';
import { multigridBot } from '../testing/strategies';
import type { MarketBuy, SellLots } from '../types';

const bot = () => multigridBot({ alloc: [0.5, 0.5], buy: [2], buyUp: [0], tp: [2, 2], tpDown: [0, 0] });
const at = (price: number, timeMs = 1_700_000_000_000) => ({ price, timeMs });

function boughtAt100() {
  const r = step(bot(), at(100), TEST_RULES);
  const buy = r.intents[0] as MarketBuy;
  return { state: r.state, buy };
}

describe('intents and pending state', () => {
  it('numbers intents with a per-bot seq and records them as pending', () => {
    const { state, buy } = boughtAt100();
    expect(buy).toEqual({ type: 'MarketBuy', seq: 1, grid: 1, qty: '5', quoteAmount: '500', price: 100 });
    expect(state.seq).toBe(1);
    expect(state.pending.map((p) => p.intent.seq)).toEqual([1]);
  });

  it('issues nothing while an intent is pending', () => {
    const { state } = boughtAt100();
    const r = step(state, at(90), TEST_RULES);
    expect(r.intents).toEqual([]);
    expect(r.state).toBe(state);
  });

  it('applies a fill once: a repeated fill for the same seq changes nothing', () => {
    const { state, buy } = boughtAt100();
    const fill = {
      seq: buy.seq,
      side: 'buy' as const,
      price: '100',
      qty: '5',
      quote: '500',
      fee: '0.5',
      timeMs: 1,
    };
    const once = applyFill(state, fill);
    expect(once.lots).toHaveLength(1);
    expect(applyFillDetailed(once, fill)).toMatchObject({ applied: false, state: once });
  });

  it('throws InvariantError for a fill of an intent never issued or of the wrong side', () => {
    const { state, buy } = boughtAt100();
    const fill = { seq: 9, side: 'buy' as const, price: 100, qty: 5, quote: 500, fee: 0.5, timeMs: 1 };
    expect(() => applyFill(state, fill)).toThrow(InvariantError);
    expect(() => applyFill(state, { ...fill, seq: buy.seq, side: 'sell' })).toThrow(InvariantError);
  });
});

describe('fills that differ from the intent', () => {
  it('keeps what was really received when the buy fee is taken in the base asset', () => {
    // 5 bought, fee 0.005 base → lot qty 4.995; the fee is already out of the quantity (the lot carries none)
    // and the bot's fee total counts it as 0.005 × 100 = 0.5 USDT.
    const { state, buy } = boughtAt100();
    const s = applyFill(state, {
      seq: buy.seq,
      side: 'buy',
      price: 100,
      qty: 5,
      quote: 500,
      fee: 0.005,
      feeAsset: 'base',
      timeMs: 1,
    });
    expect(s.lots[0]).toMatchObject({ qty: 4.995, quote: 500, fee: 0 });
    expect(s.account.fees).toBe(0.5);
    const sell = step(s, at(102), TEST_RULES).intents[0] as SellLots;
    expect(sell).toMatchObject({ type: 'SellLots', qty: '4.995', lotIds: [1] });
  });

  it('leaves a remainder below one step as dust and closes the lot', () => {
    // Step 0.01: 4.995 sells as 4.99; 0.005 stays behind as dust.
    const rules = { ...TEST_RULES, stepSize: '0.01', stepDecimals: 2 };
    const { state, buy } = boughtAt100();
    const s = applyFill(state, {
      seq: buy.seq,
      side: 'buy',
      price: 100,
      qty: 5,
      quote: 500,
      fee: 0.005,
      feeAsset: 'base',
      timeMs: 1,
    });
    const r = step(s, at(102), rules);
    const sell = r.intents.find((i) => i.type === 'SellLots') as SellLots;
    expect(sell.qty).toBe('4.99');
    const out = applyFillDetailed(r.state, {
      seq: sell.seq,
      side: 'sell',
      price: 102,
      qty: '4.99',
      quote: '508.98',
      fee: '0.50898',
      timeMs: 2,
    });
    // 508.98 − 0.50898 − 500 = 8.47102: the buy fee was paid with the 0.005 coins the lot never held.
    expect(out.closed).toMatchObject([{ lotId: 1, profit: 8.47102 }]);
    expect(out.state.account.dustQty).toBe(0.005);
    expect(out.state.lots.filter((l) => l.id === 1)).toEqual([]);
  });

  it('keeps the unsold part of a lot after a partial sell fill', () => {
    // Sold 2 of 5 at 102: 204 − 0.204 − 200 − 0.2 = 3.596; 3 remain with quote 300 and fee 0.3.
    const { state, buy } = boughtAt100();
    const s = applyFill(state, {
      seq: buy.seq,
      side: 'buy',
      price: 100,
      qty: 5,
      quote: 500,
      fee: 0.5,
      timeMs: 1,
    });
    const r = step(s, at(102), TEST_RULES);
    const sell = r.intents[0] as SellLots;
    const out = applyFillDetailed(r.state, {
      seq: sell.seq,
      side: 'sell',
      price: 102,
      qty: 2,
      quote: 204,
      fee: 0.204,
      timeMs: 2,
    });
    expect(out.closed).toMatchObject([{ qty: 2, profit: 3.596 }]);
    expect(out.state.lots.find((l) => l.id === 1)).toMatchObject({ qty: 3, quote: 300, fee: 0.3 });
  });

  it('refuses a sell fill of more than the lots held', () => {
    const { state, buy } = boughtAt100();
    const s = applyFill(state, {
      seq: buy.seq,
      side: 'buy',
      price: 100,
      qty: 5,
      quote: 500,
      fee: 0.5,
      timeMs: 1,
    });
    const r = step(s, at(102), TEST_RULES);
    const sell = r.intents[0] as SellLots;
    expect(() =>
      applyFill(r.state, { seq: sell.seq, side: 'sell', price: 102, qty: 6, quote: 612, fee: 0, timeMs: 2 }),
    ).toThrow(InvariantError);
  });
});

describe('failed intents', () => {
  it('drops a failed buy so a later tick can buy again', () => {
    const { state, buy } = boughtAt100();
    const s = applyIntentFailed(state, buy.seq);
    expect(s.pending).toEqual([]);
    expect(step(s, at(100), TEST_RULES).intents[0]).toMatchObject({ type: 'MarketBuy', seq: 2, grid: 1 });
    expect(applyIntentFailed(s, buy.seq)).toBe(s);
  });

  it('puts the lots back and undoes the stop when a stoploss sell fails', () => {
    const { state, buy } = boughtAt100();
    const held = setPriceTriggers(
      applyFill(state, { seq: buy.seq, side: 'buy', price: 100, qty: 5, quote: 500, fee: 0.5, timeMs: 1 }),
      { stoplossPrice: 95 },
    );
    const r = step(held, at(95), TEST_RULES);
    expect(r.state).toMatchObject({ status: 'Stopped', stopReason: 'stoploss', lots: [] });
    const failed = applyIntentFailed(r.state, (r.intents[0] as SellLots).seq);
    expect(failed).toMatchObject({ status: 'Live', stopReason: null, pending: [] });
    expect(failed.lots.map((l) => l.id)).toEqual([1]);
    expect(step(failed, at(94), TEST_RULES).intents[0]).toMatchObject({
      type: 'SellLots',
      reason: 'stoploss',
      seq: 3,
    });
  });
});

describe('sells left as dust', () => {
  it('closes the lots of a sell below the minimum at its price, records the dust and keeps the stop', () => {
    // 5 bought at 100 for 500 + 0.5 fee; stop and sell at 90: the runtime reports the sell cannot go out.
    const { state, buy } = boughtAt100();
    const s = applyFill(state, {
      seq: buy.seq,
      side: 'buy',
      price: 100,
      qty: 5,
      quote: 500,
      fee: 0.5,
      timeMs: 1,
    });
    const r = step(stopAndSell(s), at(90), TEST_RULES);
    const sell = r.intents[0] as SellLots;
    expect(sell).toMatchObject({ type: 'SellLots', reason: 'manual_sell', qty: '5' });
    const out = applyIntentDustDetailed(r.state, sell.seq, 2);
    // 5 × 90 = 450, no fee: 450 − 500 − 0.5 = −50.5, as the unrealized PnL was at 90.
    expect(out.closed).toMatchObject([{ lotId: 1, qty: 5, sellQuote: 450, sellFee: 0, profit: -50.5 }]);
    expect(out.state).toMatchObject({ status: 'Stopped', stopReason: 'manual_sell', lots: [], pending: [] });
    expect(out.state.account).toMatchObject({ dustQty: 5, bookedProfit: -50.5, trades: 1, openQty: 0 });
    // Once only: a second report changes nothing.
    expect(applyIntentDustDetailed(out.state, sell.seq, 3)).toMatchObject({ applied: false });
  });

  it('refuses to leave a buy as dust', () => {
    const { state, buy } = boughtAt100();
    expect(() => applyIntentDustDetailed(state, buy.seq, 2)).toThrow(InvariantError);
  });
});
