import { describe, expect, it } from 'vitest';
import { reconcileDelayMs } from './order-tracker';

describe('reconcileDelayMs (look-ups of an order whose outcome is unknown)', () => {
  it('waits 0.25–0.5 s before the first look-up, twice as long before each next one, never over 30 s', () => {
    const range = (attempts: number) => {
      const waits = Array.from({ length: 200 }, () => reconcileDelayMs(attempts));
      return [Math.min(...waits), Math.max(...waits)];
    };
    const [first0, first1] = range(1);
    expect(first0).toBeGreaterThanOrEqual(250);
    expect(first1).toBeLessThanOrEqual(500);
    const [second0, second1] = range(2);
    expect(second0).toBeGreaterThanOrEqual(500);
    expect(second1).toBeLessThanOrEqual(1000);
    for (const attempts of [7, 8, 20, 1000]) {
      const [low, high] = range(attempts);
      expect(low).toBeGreaterThanOrEqual(15_000);
      expect(high).toBeLessThanOrEqual(30_000);
    }
  });
});
