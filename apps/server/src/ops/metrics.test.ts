import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics';

const sampleOf = (text: string, name: string) =>
  Number(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1]);

describe('worker metrics', () => {
  it('counts every tick once across scrapes', async () => {
    const { registry, worker } = createMetrics('worker');
    expect(sampleOf(await registry.metrics(), 'gridbot_ticks_total')).toBe(0);
    for (let i = 0; i < 5; i += 1) worker.tick();
    expect(sampleOf(await registry.metrics(), 'gridbot_ticks_total')).toBe(5);
    expect(sampleOf(await registry.metrics(), 'gridbot_ticks_total')).toBe(5);
    worker.tick();
    expect(sampleOf(await registry.metrics(), 'gridbot_ticks_total')).toBe(6);
  });
});
