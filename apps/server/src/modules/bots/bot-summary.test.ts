import {
  applyFill,
  compileRules,
  createGridBot,
  createRange,
  type EngineState,
  simulateFill,
  step,
  stop,
} from '@gridbot/engine';
import { getMarketRules, rangeStrategySchema } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { simpleMultigrid } from '../../testing/bot-fixtures';
import { statsAt, toHistoryRow, toRangeHistoryRow, unrealizedAt } from './bot-summary';
import type { BotRow, BotView } from './bots.repo';

/** A spot ETHUSDT bot that bought grid 1 (400 USDT) at 2000: 0.2 ETH, 0.1998 after the commission in ETH. */
function spotBotAfterFirstBuy(): BotView {
  let state: EngineState = createGridBot({
    params: simpleMultigrid,
    investment: 1000,
    market: 'spot',
    startTimeMs: 0,
  });
  const r = step(state, { price: 2000, timeMs: 1 }, compileRules(getMarketRules('ETHUSDT', 'spot')));
  state = r.state;
  for (const intent of r.intents) state = applyFill(state, simulateFill(intent, 2000, 1, 0.1, 'base'));
  return { id: 'bot-1', category: 'Spot', engineState: state } as unknown as BotView;
}

describe('bot figures on the screens (docs/trading-rules.md §2.1)', () => {
  it("counts the fee of selling the holdings at market in the unrealized PnL, at the market's taker fee", () => {
    const row = spotBotAfterFirstBuy();
    // 0.1998 ETH at 2100 = 419.58, less the 0.1 % a market sell pays (0.41958), less the 400 paid.
    expect(statsAt(row, 2100, 1).unrealizedPnl).toBeCloseTo(19.16042, 8);
    expect(statsAt(row, 2100, 1).totalPnl).toBeCloseTo(19.16042, 8);
    expect(unrealizedAt(row, 2100)).toBeCloseTo(19.16042, 8);
  });
});

/** An ETHUSDT 3× futures bot that bought grid 1 at 3300 and was then stopped without a sale. */
function futuresBotStoppedWithoutSale(): BotRow {
  let state: EngineState = createGridBot({
    params: simpleMultigrid,
    investment: 300,
    market: 'future',
    leverage: 3,
    startTimeMs: 0,
  });
  const r = step(state, { price: 3300, timeMs: 1 }, compileRules(getMarketRules('ETHUSDT', 'future')));
  state = r.state;
  for (const intent of r.intents) state = applyFill(state, simulateFill(intent, 3300, 1, 0.05));
  state = stop(state);
  return {
    id: 'bot-f',
    symbol: 'ETHUSDT',
    strategyName: 'Tight',
    category: 'Future',
    engineState: state,
    lossBook: '0',
    profitBook: '0',
    closedPrice: '3310',
    createdAt: new Date(0),
    stoppedAt: new Date(60_000),
    stopReason: 'manual',
  } as unknown as BotRow;
}

describe('History rows', () => {
  it('shows a futures bot stopped without a sale as a position left open, with no closed price', () => {
    const row = futuresBotStoppedWithoutSale();
    expect(engineLots(row)).toBeGreaterThan(0);
    expect(toHistoryRow(row, 120_000)).toMatchObject({ positionLeftOpen: true, stopAt: null });
  });

  it('shows the closed price of a futures bot whose lots were all sold', () => {
    const row = futuresBotStoppedWithoutSale();
    const closed = { ...row, engineState: { ...(row.engineState as object), lots: [] } } as BotRow;
    expect(toHistoryRow(closed, 120_000)).toMatchObject({ positionLeftOpen: false, stopAt: 3310 });
  });

  it("never calls a spot bot's coins a position", () => {
    const spot = {
      ...spotBotAfterFirstBuy(),
      symbol: 'ETHUSDT',
      strategyName: 'S',
      lossBook: '0',
      profitBook: '0',
      closedPrice: '2100',
      createdAt: new Date(0),
      stoppedAt: new Date(1),
    } as unknown as BotRow;
    expect(toHistoryRow(spot, 2)).toMatchObject({ positionLeftOpen: false, stopAt: 2100 });
  });
});

const engineLots = (row: BotRow) => (row.engineState as unknown as EngineState).lots.length;

describe('History rows of range grids', () => {
  /** A futures long grid stopped without a sale, still holding 0.09 ETH bought at 3300 (3× margin 99). */
  function gridStoppedWithPosition(): BotRow {
    const params = rangeStrategySchema.parse({
      type: 'range',
      lower: 3000,
      upper: 3600,
      grids: 6,
      leverage: 3,
    });
    const state = createRange({
      params,
      investment: 300,
      market: 'future',
      rules: compileRules(getMarketRules('ETHUSDT', 'future')),
      startTimeMs: 0,
    });
    state.status = 'Stopped';
    state.futures = { ...state.futures!, pos: 0.09, entry: 297, margin: 99 };
    return {
      id: 'grid-1',
      symbol: 'ETHUSDT',
      category: 'Future',
      strategyName: '',
      engineState: state,
      closedPrice: '3310',
      positionClosedAt: null,
      positionClosedPrice: null,
      createdAt: new Date(0),
      stoppedAt: new Date(60_000),
      stopReason: 'manual',
    } as unknown as BotRow;
  }

  it('shows a grid stopped without a sale as a position left open, with no closed price', () => {
    expect(toRangeHistoryRow(gridStoppedWithPosition(), 120_000)).toMatchObject({
      positionLeftOpen: true,
      stopAt: null,
    });
  });

  it('shows its position closed from the Positions panel as closed, at the close price', () => {
    const closed = {
      ...gridStoppedWithPosition(),
      positionClosedAt: new Date(90_000),
      positionClosedPrice: '3321.5',
    } as BotRow;
    expect(toRangeHistoryRow(closed, 120_000)).toMatchObject({ positionLeftOpen: false, stopAt: 3321.5 });
  });
});
