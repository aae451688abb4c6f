import { RelayFeed } from '@gridbot/exchange';
import { eventually, ManualFeed } from '@gridbot/exchange/testing';
import { describe, expect, it, vi } from 'vitest';
import { channels, MemoryBus } from './bus';
import { publishTicks, tickSource } from './tick-relay';

describe('in-process bus (embedded mode)', () => {
  it('delivers to every subscriber of a channel until it unsubscribes', async () => {
    const bus = new MemoryBus();
    const seen: string[] = [];
    const stop = await bus.subscribe(channels.bots, (m) => seen.push(`a:${m}`));
    await bus.subscribe(channels.bots, (m) => seen.push(`b:${m}`));
    await bus.publish(channels.bots, '1');
    await eventually(async () => expect(seen.sort()).toEqual(['a:1', 'b:1']));
    await stop();
    await bus.publish(channels.bots, '2');
    await eventually(async () => expect(seen).toContain('b:2'));
    expect(seen).not.toContain('a:2');
  });

  it('relays the market feed’s latest tick of each stream to a relay feed', async () => {
    const bus = new MemoryBus();
    const market = new ManualFeed({ 'spot:BTCUSDT': '60000' });
    const relay = new RelayFeed({ kind: 'replay', source: tickSource(bus) });
    await relay.start();
    const publisher = publishTicks(market, bus, 10);
    const prices: string[] = [];
    relay.subscribe('BTCUSDT', 'spot', (tick) => {
      prices.push(tick.price);
    });
    market.setPrice('BTCUSDT', 'spot', '60001');
    market.setPrice('BTCUSDT', 'spot', '60002');
    await eventually(async () => expect(relay.lastPrice('BTCUSDT', 'spot')).toBe('60002.00'));
    expect(prices.at(-1)).toBe('60002.00');
    publisher.stop();
    await relay.stop();
  });

  describe('ticks on the bus', () => {
    /** A memory bus that also records each message of the ticks channel with when it was sent. */
    function recordingBus() {
      const bus = new MemoryBus();
      const sent: Array<{ atMs: number; prices: string[] }> = [];
      const publish = bus.publish.bind(bus);
      bus.publish = (channel, message) => {
        if (channel === channels.ticks) {
          const batch = JSON.parse(message) as { ticks: Array<[string, string, string]> };
          sent.push({ atMs: performance.now(), prices: batch.ticks.map((t) => t[2]) });
        }
        return publish(channel, message);
      };
      return { bus, sent };
    }
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

    it('publishes a tick after a quiet spell at once, not at the next flush', async () => {
      const { bus, sent } = recordingBus();
      const market = new ManualFeed({ 'spot:BTCUSDT': '60000' });
      const publisher = publishTicks(market, bus, 60_000);
      market.setPrice('BTCUSDT', 'spot', '60001');
      await eventually(async () => expect(sent).toHaveLength(1), 500);
      expect(sent[0]!.prices).toEqual(['60001.00']);
      publisher.stop();
    });

    it('sends at most one message per flush interval, with the latest tick of each stream', async () => {
      const { bus, sent } = recordingBus();
      const market = new ManualFeed({ 'spot:BTCUSDT': '60000', 'spot:ETHUSDT': '3000' });
      const publisher = publishTicks(market, bus, 150);
      market.setPrice('BTCUSDT', 'spot', '60001');
      market.setPrice('ETHUSDT', 'spot', '3001');
      await nextTurn();
      market.setPrice('BTCUSDT', 'spot', '60002');
      await nextTurn();
      market.setPrice('BTCUSDT', 'spot', '60003');
      await eventually(async () => expect(sent).toHaveLength(2), 1000);
      // Ticks of the same turn share the first message; the rest waited for the interval, coalesced.
      expect(sent[0]!.prices.sort()).toEqual(['3001.00', '60001.00']);
      expect(sent[1]!.prices).toEqual(['60003.00']);
      expect(sent[1]!.atMs - sent[0]!.atMs).toBeGreaterThanOrEqual(140);
      publisher.stop();
    });

    it('sends nothing after stop, not even a tick that was waiting', async () => {
      // Fake timers: the waiting tick's flush is due within the interval, and the test runs the clock past it.
      vi.useFakeTimers({
        toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'],
      });
      try {
        const { bus, sent } = recordingBus();
        const market = new ManualFeed({ 'spot:BTCUSDT': '60000' });
        const publisher = publishTicks(market, bus, 100);
        market.setPrice('BTCUSDT', 'spot', '60001');
        await vi.advanceTimersByTimeAsync(0);
        expect(sent).toHaveLength(1);
        market.setPrice('BTCUSDT', 'spot', '60002');
        publisher.stop();
        await vi.advanceTimersByTimeAsync(200);
        expect(sent).toHaveLength(1);
      } finally {
        vi.useRealTimers();
      }
    });
  });
});
