import { describe, expect, it } from 'vitest';
import type { Tick } from '../market-feed';
import { TickHub } from './tick-hub';

const tick = (price: string): Tick => ({ symbol: 'BTCUSDT', market: 'spot', price, tsMs: 0, emittedAt: 0 });

describe('TickHub', () => {
  it('delivers each tick to every subscriber of the stream until it unsubscribes', () => {
    const hub = new TickHub();
    const a: string[] = [];
    const b: string[] = [];
    const stopA = hub.subscribe('BTCUSDT', 'spot', (t) => void a.push(t.price));
    hub.subscribe('BTCUSDT', 'spot', (t) => void b.push(t.price));
    hub.subscribe('BTCUSDT', 'future', () => {
      throw new Error('other stream');
    });
    hub.publish(tick('1'));
    stopA();
    hub.publish(tick('2'));
    expect(a).toEqual(['1']);
    expect(b).toEqual(['1', '2']);
    expect(hub.last('BTCUSDT', 'spot')?.price).toBe('2');
  });

  it('never queues ticks for a slow subscriber: the latest price waits, the rest are dropped', async () => {
    const hub = new TickHub();
    const seen: string[] = [];
    let release: () => void = () => {};
    hub.subscribe('BTCUSDT', 'spot', async (t) => {
      seen.push(t.price);
      if (t.price === '1') await new Promise<void>((resolve) => (release = resolve));
    });
    const fast: string[] = [];
    hub.subscribe('BTCUSDT', 'spot', (t) => void fast.push(t.price));
    for (const price of ['1', '2', '3', '4']) hub.publish(tick(price));
    expect(seen).toEqual(['1']);
    expect(fast).toEqual(['1', '2', '3', '4']);
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual(['1', '4']);
  });

  it('keeps delivering to others when one subscriber throws', () => {
    const errors: unknown[] = [];
    const hub = new TickHub((error) => errors.push(error));
    const seen: string[] = [];
    hub.subscribe('BTCUSDT', 'spot', () => {
      throw new Error('boom');
    });
    hub.subscribe('BTCUSDT', 'spot', (t) => void seen.push(t.price));
    hub.publish(tick('1'));
    expect(seen).toEqual(['1']);
    expect(errors).toHaveLength(1);
  });

  it('answers next() with the first tick when none was published yet', async () => {
    const hub = new TickHub();
    const pending = hub.next('BTCUSDT', 'spot');
    hub.publish(tick('7'));
    expect((await pending).price).toBe('7');
  });
});
