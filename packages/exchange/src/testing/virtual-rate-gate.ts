import { BinanceRateGate } from '../ccxt/rate-gate';

/** A rate gate on a virtual clock: waiting out a pause moves the clock and records the wait (ms). */
export function virtualRateGate(): { gate: BinanceRateGate; waits: number[] } {
  const waits: number[] = [];
  let now = 0;
  const gate = new BinanceRateGate({
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  });
  return { gate, waits };
}
