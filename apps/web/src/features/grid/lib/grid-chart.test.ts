import { describe, expect, it } from 'vitest';
import { runningGridLevels, startFormLevels } from './grid-chart';

describe('the grid on the chart', () => {
  it('start form: buys below the empty level, sells above, the bounds and stops named on the axis', () => {
    const lines = startFormLevels({
      lower: 90,
      upper: 110,
      levels: [90, 95, 100, 105, 110],
      nearest: 2,
      stopLoss: 85,
      takeProfit: null,
      trigger: 99,
    });
    expect(lines.map((l) => [l.key, l.price, l.tone, l.axisLabel !== false])).toEqual([
      ['level-1', 95, 'bid', false],
      ['level-3', 105, 'ask', false],
      ['lower', 90, 'neutral', true],
      ['upper', 110, 'neutral', true],
      ['stopLoss', 85, 'stop', true],
      ['trigger', 99, 'warn', true],
    ]);
    expect(lines.filter((l) => l.keepInView).map((l) => l.key)).toEqual(['lower', 'upper']);
  });

  it('running grid: each resting order in its side, the current bounds after trailing', () => {
    const lines = runningGridLevels({
      levels: [95, 100, 105, 110, 115],
      orders: [
        { level: 1, side: 'buy', price: 100, qty: 1, clientOrderId: 'a', reduceOnly: false },
        { level: 3, side: 'sell', price: 110, qty: 1, clientOrderId: 'b', reduceOnly: false },
      ],
      strategy: { stopLoss: null, takeProfit: 120 },
    });
    expect(lines.map((l) => [l.key, l.price, l.title, l.tone])).toEqual([
      ['order-1', 100, 'Buy', 'bid'],
      ['order-3', 110, 'Sell', 'ask'],
      ['lower', 95, 'Lower', 'neutral'],
      ['upper', 115, 'Upper', 'neutral'],
      ['takeProfit', 120, 'Take-profit', 'warn'],
    ]);
    // The chart's axis widens to the bounds, so every level is on it.
    expect(lines.filter((l) => l.keepInView).map((l) => l.key)).toEqual(['lower', 'upper']);
  });
});
