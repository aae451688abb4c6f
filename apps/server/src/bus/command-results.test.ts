import { describe, expect, it, vi } from 'vitest';
import { MemoryBus } from './bus';
import { CommandResults, publishCommandsSettled } from './command-results';

describe('command results on the bus', () => {
  it('wakes the waiting request at the word about its bot, long before its deadline', async () => {
    const bus = new MemoryBus();
    const settled = await new CommandResults(bus).settlements('bot-1');
    const started = performance.now();
    const waiting = settled.next(60_000);
    await publishCommandsSettled(bus, 'bot-1');
    await waiting;
    expect(performance.now() - started).toBeLessThan(1_000);
    settled.close();
  });

  it('ignores words about other bots and returns at its deadline without one', async () => {
    vi.useFakeTimers();
    try {
      const bus = new MemoryBus();
      const settled = await new CommandResults(bus).settlements('bot-1');
      let woke = false;
      const waiting = settled.next(200).then(() => {
        woke = true;
      });
      await publishCommandsSettled(bus, 'bot-2');
      await vi.advanceTimersByTimeAsync(199);
      expect(woke).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await waiting;
      expect(woke).toBe(true);
      settled.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps a word heard while the request was reading the database', async () => {
    const bus = new MemoryBus();
    const settled = await new CommandResults(bus).settlements('bot-1');
    await publishCommandsSettled(bus, 'bot-1');
    await new Promise((resolve) => queueMicrotask(() => resolve(undefined)));
    const started = performance.now();
    await settled.next(60_000);
    expect(performance.now() - started).toBeLessThan(100);
    settled.close();
  });

  it('without a bus waits out its time (the final read follows)', async () => {
    const settled = await new CommandResults(undefined).settlements('bot-1');
    const started = performance.now();
    await settled.next(50);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    settled.close();
  });
});

describe('command results while the bus is down', () => {
  it('reads again about once a second instead of waiting for a word that cannot come', async () => {
    const bus = new MemoryBus();
    const down = Object.assign(Object.create(bus) as MemoryBus, { healthy: () => false });
    const settled = await new CommandResults(down).settlements('bot-1');
    const started = performance.now();
    await settled.next(60_000);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(3_000);
    settled.close();
  });
});
