/**
 * Hand-worked examples of docs/trading-rules.md §2.2. Rules: step 0.001, min notional 5; fee 0.1 % of quote.
 * Investment 1000 unless said otherwise; alloc [0.5, 0.3, 0.2] → grid quotes 500, 300, 200.
 */
import { describe, expect, it } from 'vitest';
import { setOverbuyProtection } from '../../commands';
import { step } from '../../engine';
import { intentSummary, runPrices, TEST_FUTURE_RULES, TEST_RULES } from '../../testing/harness';
import { multigridBot } from '../../testing/strategies';

const ALLOC = [0.5, 0.3, 0.2];

describe('Multigrid buying (docs/trading-rules.md §2.2 step 4)', () => {
  it('buys grid 1 at market on the first tick', () => {
    // 500 / 100 = 5 → qty 5, quote 5 × 100 = 500, fee 0.5.
    const { state, log } = runPrices(multigridBot({ alloc: ALLOC }), [100]);
    expect(intentSummary(log)).toEqual(['@100 buy g1 5']);
    expect(state.lots).toMatchObject([{ id: 1, grid: 1, price: 100, qty: 5, quote: 500, fee: 0.5 }]);
    expect(state.account).toMatchObject({ openQty: 5, openCost: 500.5, fees: 0.5 });
  });

  it('arms the trailing buy at buy % below the newest lot and buys on a rebound of buyUp %', () => {
    // buy[2] = 2 %: arms at p ≤ 100 × 0.98 = 98 (low 98); 97 → low 97; buys at p ≥ 97 × 1.01 = 97.97.
    // 300 / 97.97 = 3.0621…→ qty 3.062; quote 3.062 × 97.97 = 299.98414; fee 0.29998414.
    const bot = multigridBot({ alloc: ALLOC, buy: [2, 2], buyUp: [1, 1], tp: [2, 2, 2], tpDown: [1, 1, 1] });
    const { state, log } = runPrices(bot, [100, 99, 98, 97, 97.5, 97.97]);
    expect(log.map((t) => t.state.trail)).toEqual([
      { armed: false, low: 0 },
      { armed: false, low: 0 },
      { armed: true, low: 98 },
      { armed: true, low: 97 },
      { armed: true, low: 97 },
      { armed: false, low: 0 },
    ]);
    expect(intentSummary(log)).toEqual(['@100 buy g1 5', '@97.97 buy g2 3.062']);
    expect(state.lots[1]).toMatchObject({ grid: 2, qty: 3.062, quote: 299.98414, fee: 0.29998414 });
  });

  it('buys on the arming tick when buyUp is 0', () => {
    // Arms at 98 with low 98; 98 ≥ 98 × 1.00 → buys grid 2 at once: 300 / 98 = 3.0612… → 3.061.
    const { log } = runPrices(multigridBot({ alloc: ALLOC, buyUp: [0, 0] }), [100, 98.5, 98]);
    expect(intentSummary(log)).toEqual(['@100 buy g1 5', '@98 buy g2 3.061']);
  });

  it('bases the next grid on the newest lot and stops at N grids', () => {
    // g2 at 98; g3 arms at 98 × 0.98 = 96.04; no grid 4 exists however far the price falls.
    const { state, log } = runPrices(
      multigridBot({ alloc: ALLOC, buyUp: [0, 0] }),
      [100, 98, 96.05, 96.04, 50],
    );
    expect(intentSummary(log)).toEqual(['@100 buy g1 5', '@98 buy g2 3.061', '@96.04 buy g3 2.082']);
    expect(state.lots.map((l) => l.grid)).toEqual([1, 2, 3]);
  });

  it('never buys grids above the overbuy protection value, and buys again once it is reset', () => {
    // Protection active at 1: grid 2 is blocked at 98, 95, 90. Reset → grid 2 at 90: 300/90 → 3.333.
    let bot = multigridBot(
      { alloc: ALLOC, buyUp: [0, 0] },
      { settings: { overbuy: { active: true, value: 1 } } },
    );
    const first = runPrices(bot, [100, 98, 95, 90]);
    expect(intentSummary(first.log)).toEqual(['@100 buy g1 5']);
    bot = setOverbuyProtection(first.state, { active: false, value: null });
    expect(intentSummary(runPrices(bot, [90]).log)).toEqual(['@90 buy g2 3.333']);
  });
});

describe('Multigrid take-profit (docs/trading-rules.md §2.2 step 3)', () => {
  it('arms at tp %, follows the high and sells tpDown % below it', () => {
    // Lot at 100, tp 2 → arms at 102 (high 102); 104 → high 104; sells at ≤ 104 × 0.99 = 102.96.
    // Sell 5 × 102.96 = 514.8, fee 0.5148; pnl = 514.8 − 0.5148 − 500 − 0.5 = 13.7852.
    // The stack is then empty, so grid 1 buys again at market: 500 / 102.96 → 4.856.
    const bot = multigridBot({ alloc: ALLOC, buy: [2, 2], buyUp: [1, 1], tp: [2, 2, 2], tpDown: [1, 1, 1] });
    const { state, log } = runPrices(bot, [100, 101.9, 102, 104, 103, 102.96]);
    expect(log.map((t) => [t.state.lots[0]?.armed, t.state.lots[0]?.high])).toEqual([
      [false, 0],
      [false, 0],
      [true, 102],
      [true, 104],
      [true, 104],
      [false, 0],
    ]);
    expect(intentSummary(log)).toEqual([
      '@100 buy g1 5',
      '@102.96 sell g1 5 take_profit',
      '@102.96 buy g1 4.856',
    ]);
    expect(log[5]?.closed).toMatchObject([
      { grid: 1, qty: 5, sellQuote: 514.8, sellFee: 0.5148, profit: 13.7852 },
    ]);
    expect(state.account.bookedProfit).toBe(13.7852);
  });

  it('sells on the arming tick when tpDown is 0', () => {
    // Arms at 102 with high 102; 102 ≤ 102 × 1 → sells: 510 − 0.51 − 500 − 0.5 = 8.99.
    const { log } = runPrices(multigridBot({ alloc: ALLOC }), [100, 101.99, 102]);
    expect(intentSummary(log)).toEqual(['@100 buy g1 5', '@102 sell g1 5 take_profit', '@102 buy g1 4.901']);
    expect(log[2]?.closed[0]?.profit).toBe(8.99);
  });

  it('sells the newest lot first when two lots reach take-profit on one tick', () => {
    // g1 at 100 (qty 5), g2 at 98 (qty 3.061, quote 299.978, fee 0.299978). At 102 both arm (99.96 and
    // 102) and sell (tpDown 0), newest first; then grid 1 rebuys at market.
    // g2: 3.061 × 102 = 312.222, fee 0.312222 → 312.222 − 0.312222 − 299.978 − 0.299978 = 11.6318.
    // g1: 510 − 0.51 − 500 − 0.5 = 8.99. Booked 20.6218.
    const { state, log } = runPrices(multigridBot({ alloc: ALLOC, buyUp: [0, 0] }), [100, 98, 102]);
    expect(intentSummary(log)).toEqual([
      '@100 buy g1 5',
      '@98 buy g2 3.061',
      '@102 sell g2 3.061 take_profit',
      '@102 sell g1 5 take_profit',
      '@102 buy g1 4.901',
    ]);
    expect(log[2]?.closed.map((c) => c.profit)).toEqual([11.6318, 8.99]);
    expect(state.account.bookedProfit).toBe(20.6218);
  });

  it('records each grid its own tp when bought (positional parameters)', () => {
    const bot = multigridBot({ alloc: ALLOC, buyUp: [0, 0], tp: [1, 3, 5], tpDown: [0.5, 0.7, 0.9] });
    const { state } = runPrices(bot, [100, 98, 96.04]);
    expect(state.lots.map((l) => [l.grid, l.tpPct, l.tpDownPct, l.tpPrice])).toEqual([
      [1, 1, 0.5, 101],
      [2, 3, 0.7, 100.94],
      [3, 5, 0.9, 100.842],
    ]);
  });
});

describe('Multigrid risk exits (docs/trading-rules.md §2.2 steps 1–2)', () => {
  const noTp = { alloc: ALLOC, buyUp: [0, 0], tp: [50, 50, 50] };

  it('sells all and pauses at the pause price, then restarts at the restart price', () => {
    // g1 at 100 (5), g2 at 98 (3.061). At 110: sell 8.061 newest first, status Pause.
    // g2: 336.71 − 0.33671 − 299.978 − 0.299978 = 36.095312; g1: 550 − 0.55 − 500 − 0.5 = 48.95.
    // 105 and 110 again: nothing. 100 ≤ restart → Live and grid 1 buys at market on that tick.
    const bot = multigridBot(noTp, { settings: { pausePrice: 110, restartPrice: 100 } });
    const { state, log } = runPrices(bot, [100, 98, 110, 105, 110, 100]);
    expect(intentSummary(log)).toEqual([
      '@100 buy g1 5',
      '@98 buy g2 3.061',
      '@110 sell g2,g1 8.061 pause',
      '@100 buy g1 5',
    ]);
    expect(log.map((t) => t.state.status)).toEqual(['Live', 'Live', 'Pause', 'Pause', 'Pause', 'Live']);
    expect(log[2]?.closed.map((c) => c.profit)).toEqual([36.095312, 48.95]);
    expect(state.account.bookedProfit).toBe(85.045312);
  });

  it('sells all and stops at the stoploss price', () => {
    // g1 100 (5), g2 98 (3.061), g3 at 95 ≤ 96.04: 200/95 → 2.105 (quote 199.975). At 90 ≤ stoploss:
    // sell 10.166. g3: 189.45 − 0.18945 − 199.975 − 0.199975 = −10.914425;
    // g2: 275.49 − 0.27549 − 299.978 − 0.299978 = −25.063468; g1: 450 − 0.45 − 500 − 0.5 = −50.95. Booked −86.927893.
    const bot = multigridBot(noTp, { settings: { stoplossPrice: 90 } });
    const { state, log } = runPrices(bot, [100, 98, 95, 90, 80, 120]);
    expect(intentSummary(log)).toEqual([
      '@100 buy g1 5',
      '@98 buy g2 3.061',
      '@95 buy g3 2.105',
      '@90 sell g3,g2,g1 10.166 stoploss',
    ]);
    expect(log[3]?.closed.map((c) => c.profit)).toEqual([-10.914425, -25.063468, -50.95]);
    expect(state).toMatchObject({ status: 'Stopped', stopReason: 'stoploss', lots: [] });
    expect(state.account.bookedProfit).toBe(-86.927893);
  });

  it('books profit and stops when total PnL reaches profitbookat % of the investment', () => {
    // 1 % of 1000 = 10. Lot 5 @ 100 costs 500.5: at 102 PnL = 510 − 500.5 = 9.5; at 102.1 it is 10.
    // Sell: 510.5 − 0.5105 − 500 − 0.5 = 9.4895.
    const bot = multigridBot(noTp, { settings: { profitBookPct: 1 } });
    const { state, log } = runPrices(bot, [100, 102, 102.1, 103]);
    expect(intentSummary(log)).toEqual(['@100 buy g1 5', '@102.1 sell g1 5 profit_book']);
    expect(state).toMatchObject({ status: 'Stopped', stopReason: 'profit_book' });
    expect(state.account.bookedProfit).toBe(9.4895);
  });

  it('checks stoploss before pause (first match wins)', () => {
    const bot = multigridBot(noTp, { settings: { stoplossPrice: 101, pausePrice: 99 } });
    const { state } = runPrices(bot, [100]);
    expect(state).toMatchObject({ status: 'Stopped', stopReason: 'stoploss' });
  });
});

describe('Multigrid futures (docs/trading-rules.md §2.2 futures)', () => {
  it('buys qty from margin × leverage and books profit on notional', () => {
    // Margin 1000 × 3 = 3000 notional → qty 30; fee 0.05 % = 1.5. Sells at 102 (tp 2, tpDown 0):
    // 3060 − 1.53 − 3000 − 1.5 = 56.97.
    const bot = multigridBot({ alloc: [1] }, { market: 'future', leverage: 3 });
    const { log } = runPrices(bot, [100, 102], TEST_FUTURE_RULES, { feePct: 0.05 });
    expect(log[0]?.state.lots[0]).toMatchObject({ qty: 30, quote: 3000, fee: 1.5, margin: 1000 });
    expect(log[1]?.closed[0]?.profit).toBe(56.97);
  });

  it('liquidates at (Q×E − M − cum) / (Q×(1 − m)) and loses the margin', () => {
    // Leverage 5: margin 1000, notional 5000, qty 50, fee 2.5. One bracket at m = 0.5 %, cum 0:
    // liq = (5000 − 1000) / (50 × 0.995) = 80.4020100502… → 80.40201006 (8 decimals, up);
    // 81 is above, 80.4 is below.
    // Loss = −(margin 1000 + buy fee 2.5) = −1002.5.
    const bot = multigridBot({ alloc: [1], tp: [50] }, { market: 'future', leverage: 5 });
    const { state, log } = runPrices(bot, [100, 81, 80.4, 200], TEST_FUTURE_RULES, { feePct: 0.05 });
    expect(log[0]?.state.account.liqPrice).toBe(80.40201006);
    expect(intentSummary(log)).toEqual(['@100 buy g1 50', '@80.4 sell g1 50 liquidated']);
    expect(log[2]?.intents[0]).toMatchObject({ type: 'RecordLiquidation', quote: '4000' });
    expect(state).toMatchObject({ status: 'Stopped', stopReason: 'liquidated' });
    expect(state.account.bookedProfit).toBe(-1002.5);
  });

  it('books no liquidation at its own price when the exchange reports liquidations, and keeps its lot', () => {
    // As above (liq 80.40201006), on rules where the exchange alone liquidates (Binance, on its mark price):
    // 80.4 is below the engine's level, yet the lot stays and the bot trades on, showing the level.
    const bot = multigridBot({ alloc: [1], tp: [50] }, { market: 'future', leverage: 5 });
    const rules = { ...TEST_FUTURE_RULES, liquidationFromExchange: true };
    const { state, log } = runPrices(bot, [100, 80.4, 70], rules, { feePct: 0.05 });
    expect(intentSummary(log)).toEqual(['@100 buy g1 50']);
    expect(state).toMatchObject({ status: 'Live', stopReason: null, lots: [{ qty: 50 }] });
    expect(state.account.liqPrice).toBe(80.40201006);
  });
});

describe('Multigrid min notional at run time', () => {
  it('skips a buy whose rounded order is below min notional and says so', () => {
    // 6 USDT at 100 with step 0.1 → qty 0 (6/100 = 0.06 → 0.0): below 5 USDT.
    const bot = multigridBot({ alloc: [1] }, { investment: 6 });
    const r = step(bot, { price: 100, timeMs: 0 }, { ...TEST_RULES, stepSize: '0.1', stepDecimals: 1 });
    expect(r.intents).toEqual([]);
    expect(r.notices).toEqual([
      { type: 'BuySkipped', grid: 1, reason: 'below_min_notional', notional: 0, minNotional: 5 },
    ]);
  });

  it('keeps the skipped buy on the state for the bot page, once, until a buy fills', () => {
    const rules = { ...TEST_RULES, stepSize: '0.1', stepDecimals: 1 };
    const bot = multigridBot({ alloc: [1] }, { investment: 6 });
    const first = step(bot, { price: 100, timeMs: 1000 }, rules).state;
    expect(first.skippedBuy).toEqual({
      grid: 1,
      reason: 'below_min_notional',
      notional: 0,
      minNotional: 5,
      timeMs: 1000,
    });
    // Skipped again for the same reason: the same state, nothing new to store.
    expect(step(first, { price: 99, timeMs: 2000 }, rules).state).toBe(first);
    // At 50 the order is 0.1 × 50 = 5 USDT: it is sent, and once filled the notice goes.
    const { state } = runPrices(first, [50], rules);
    expect(state.lots).toHaveLength(1);
    expect(state.skippedBuy).toBeNull();
  });
});
