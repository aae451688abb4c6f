import type { Exchange, FetchOrderResult, Order } from '@gridbot/exchange';
import { describe, expect, it } from 'vitest';
import { noMetrics } from '../ops/metrics';
import { instrumentExchange } from './bot-launch';

/** An order as a look-up answers it, filled by `filledQuantity`. */
const looked = (filledQuantity: string): FetchOrderResult => ({
  found: true,
  order: { status: filledQuantity === '0' ? 'NEW' : 'FILLED', filledQuantity } as Order,
});

/** The instrumented exchange over one that answers every look-up with `next`, and what it measured. */
function measured() {
  let next: FetchOrderResult = { found: false };
  const exchange = {
    fetchOrder: async () => next,
    placeOrder: async () => ({}),
  } as unknown as Exchange;
  let emittedAt: number | undefined;
  const ticks: string[] = [];
  const answers: number[] = [];
  const instrumented = instrumentExchange(
    exchange,
    {
      ...noMetrics,
      tickToOrder: (_seconds, type) => ticks.push(type),
      fillToAnswer: (seconds) => answers.push(seconds),
    },
    () => {
      const at = emittedAt;
      emittedAt = undefined;
      return at;
    },
  );
  return {
    instrumented,
    ticks,
    answers,
    lookUpShows: (result: FetchOrderResult) => {
      next = result;
      return instrumented.fetchOrder('spot', 'BTCUSDT', 'c1');
    },
    tick: () => {
      emittedAt = performance.now();
    },
    place: (type: 'market' | 'limit') =>
      instrumented.placeOrder({ type } as Parameters<Exchange['placeOrder']>[0]),
  };
}

describe('instrumentExchange', () => {
  it("measures a grid's answer from the look-up that showed the fill it answers", async () => {
    const m = measured();
    m.tick();
    await m.lookUpShows(looked('0.5'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await m.place('limit');
    expect(m.ticks).toEqual(['limit']);
    expect(m.answers).toHaveLength(1);
    expect(m.answers[0]).toBeGreaterThanOrEqual(0.015);
    expect(m.answers[0]).toBeLessThan(1);
  });

  it('measures no answer for a market order, an order after a look-up without a fill, or a second order', async () => {
    const m = measured();
    m.tick();
    await m.lookUpShows(looked('0.5'));
    await m.place('market');
    m.tick();
    await m.lookUpShows(looked('0'));
    await m.lookUpShows({ found: false });
    await m.place('limit');
    m.tick();
    await m.lookUpShows(looked('1'));
    await m.place('limit');
    await m.place('limit');
    expect(m.ticks).toEqual(['market', 'limit', 'limit']);
    expect(m.answers).toHaveLength(1);
  });

  it('measures no answer for an order placed without a tick (a start, a restart, a command)', async () => {
    const m = measured();
    await m.lookUpShows(looked('1'));
    await m.place('limit');
    expect(m.ticks).toEqual([]);
    expect(m.answers).toEqual([]);
  });
});
