import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { afterPendingIo } from './after-io';

describe('work that waits for the I/O already in', () => {
  it('resumes its callers in the order they asked', async () => {
    const order: number[] = [];
    await Promise.all([1, 2, 3].map((n) => afterPendingIo().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3]);
  });

  it('handles an answer that arrives during a wave of callers between two of them, not after the wave', async () => {
    // Fifty bookings of 2 ms each: a wave of 100 ms. The answer is sent 20 ms in; it is handled within a group
    // of bookings of its arrival (all at once, it would wait for the fiftieth).
    const server = createServer((socket) => setTimeout(() => socket.end('answer'), 20));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const events: string[] = [];
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const answered = new Promise<void>((resolve) =>
      socket.on('data', () => {
        events.push('answer');
        resolve();
      }),
    );
    const bookings = Array.from({ length: 50 }, (_, i) =>
      afterPendingIo().then(() => {
        const until = performance.now() + 2;
        while (performance.now() < until); // a fill's booking: synchronous work
        events.push(`booking ${i}`);
      }),
    );
    await Promise.all([answered, ...bookings]);
    server.close();
    expect(events.filter((e) => e.startsWith('booking'))).toHaveLength(50);
    expect(events.indexOf('answer')).toBeLessThan(40);
  });
});
