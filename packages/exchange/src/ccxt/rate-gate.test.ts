import { describe, expect, it } from 'vitest';
import { BinanceRateGate } from './rate-gate';

function clockedGate() {
  let now = 0;
  const waits: number[] = [];
  const gate = new BinanceRateGate({
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  });
  const advance = (ms: number) => {
    now += ms;
  };
  return { gate, waits, advance };
}

describe('the process rate gate', () => {
  it('lets requests through at once when Binance has not limited them', async () => {
    const { gate, waits } = clockedGate();
    await gate.wait();
    expect(waits).toEqual([]);
  });

  it('waits out Retry-After of a 429, and a 418 ban (two minutes when Binance gives no Retry-After)', async () => {
    const { gate, waits } = clockedGate();
    gate.rateLimited(429, 7);
    await gate.wait();
    expect(waits).toEqual([7_000]);
    gate.rateLimited(418, undefined);
    await gate.wait();
    expect(waits).toEqual([7_000, 120_000]);
  });

  it('keeps the longest pause: a shorter 429 never cuts a ban short', async () => {
    const { gate, waits, advance } = clockedGate();
    gate.rateLimited(418, 300);
    advance(1_000);
    gate.rateLimited(429, 1);
    expect(gate.pausedForMs()).toBe(299_000);
    await gate.wait();
    expect(waits).toEqual([299_000]);
  });

  it('hands every client of a venue the same weight bucket', () => {
    const gate = new BinanceRateGate();
    const first = { throttle: async () => undefined };
    const second = { throttle: async () => undefined };
    expect(gate.throttlerFor('spot', first)).toBe(first);
    expect(gate.throttlerFor('spot', second)).toBe(first);
    expect(gate.throttlerFor('usdm', second)).toBe(second);
  });
});
