import {
  applyFill,
  compileRules,
  createGridBot,
  type EngineState,
  simulateFill,
  step,
} from '@gridbot/engine';
import { getMarketRules } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { simpleMultigrid } from '../../testing/bot-fixtures';
import { statsAt, unrealizedAt } from './bot-summary';
import type { BotView } from './bots.repo';

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
