import { RelayFeed } from '@gridbot/exchange';
import { eventually, ManualFeed } from '@gridbot/exchange/testing';
import { describe, expect, it } from 'vitest';
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
});
