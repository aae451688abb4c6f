import { describe, expect, it } from 'vitest';
import { Batcher } from './batcher';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('Batcher', () => {
  it('answers each caller with its own result from one shared call', async () => {
    const calls: number[][] = [];
    const squares = new Batcher<number, number>(async (items) => {
      calls.push([...items]);
      return items.map((n) => n * n);
    });
    await expect(Promise.all([2, 3, 4].map((n) => squares.submit(n)))).resolves.toEqual([4, 9, 16]);
    expect(calls).toEqual([[2, 3, 4]]);
  });

  it('sends a request alone at once when nothing else is waiting', async () => {
    const calls: string[][] = [];
    const echo = new Batcher<string, string>(async (items) => {
      calls.push([...items]);
      return items;
    });
    await expect(echo.submit('a')).resolves.toBe('a');
    await expect(echo.submit('b')).resolves.toBe('b');
    expect(calls).toEqual([['a'], ['b']]);
  });

  it('serves what arrives during a call with the next one', async () => {
    const calls: number[][] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const batcher = new Batcher<number, number>(async (items) => {
      calls.push([...items]);
      if (items.includes(0)) await gate;
      return items.map((n) => -n);
    });
    const first = batcher.submit(0);
    await nextTurn();
    const later = [1, 2, 3].map((n) => batcher.submit(n));
    await nextTurn();
    expect(calls).toEqual([[0]]);
    release();
    await expect(Promise.all([first, ...later])).resolves.toEqual([-0, -1, -2, -3]);
    expect(calls).toEqual([[0], [1, 2, 3]]);
  });

  it('fails only the request that fails alone: a failed call is retried item by item', async () => {
    const batcher = new Batcher<number, string>(async (items) => {
      if (items.includes(13)) throw new Error('unlucky');
      return items.map(String);
    });
    const results = await Promise.allSettled([12, 13, 14].map((n) => batcher.submit(n)));
    expect(results).toEqual([
      { status: 'fulfilled', value: '12' },
      { status: 'rejected', reason: new Error('unlucky') },
      { status: 'fulfilled', value: '14' },
    ]);
  });

  it('splits a wave evenly over its concurrent calls', async () => {
    const calls: number[][] = [];
    const gates: (() => void)[] = [];
    const batcher = new Batcher<number, number>(
      async (items) => {
        calls.push([...items]);
        await new Promise<void>((resolve) => gates.push(resolve));
        return [...items];
      },
      { concurrency: 2, minBatch: 1 },
    );
    const wave = Promise.all([1, 2, 3, 4, 5].map((n) => batcher.submit(n)));
    await nextTurn();
    expect(calls).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    for (const release of gates) release();
    await expect(wave).resolves.toEqual([1, 2, 3, 4, 5]);
  });

  it('never puts two requests of one key in a call: the later one waits for the next, in order', async () => {
    const calls: string[][] = [];
    const batcher = new Batcher<string, string>(
      async (items) => {
        calls.push([...items]);
        return items;
      },
      { keyOf: (item) => item.split(':')[0] as string },
    );
    const all = ['u1:a', 'u2:a', 'u1:b', 'u3:a', 'u1:c'].map((item) => batcher.submit(item));
    await expect(Promise.all(all)).resolves.toEqual(['u1:a', 'u2:a', 'u1:b', 'u3:a', 'u1:c']);
    expect(calls).toEqual([['u1:a', 'u2:a', 'u3:a'], ['u1:b'], ['u1:c']]);
  });

  it('with calls in parallel, runs no request beside an earlier one of its key: it waits for that call', async () => {
    const running = new Set<string>();
    const calls: string[][] = [];
    const gates: (() => void)[] = [];
    const batcher = new Batcher<string, string>(
      async (items) => {
        calls.push([...items]);
        running.add(items.join());
        await new Promise<void>((resolve) => gates.push(resolve));
        running.delete(items.join());
        return items;
      },
      { concurrency: 2, minBatch: 1, keyOf: (item) => item.split(':')[0] as string },
    );
    const first = batcher.submit('u1:a');
    await nextTurn();
    // u1's second change waits for the call holding its first; u2's goes out beside it.
    const later = ['u1:b', 'u2:a'].map((item) => batcher.submit(item));
    await nextTurn();
    expect([...running]).toEqual(['u1:a', 'u2:a']);
    gates.shift()!();
    await expect(first).resolves.toBe('u1:a');
    await nextTurn();
    expect([...running]).toEqual(['u2:a', 'u1:b']);
    for (const release of gates.splice(0)) release();
    await expect(Promise.all(later)).resolves.toEqual(['u1:b', 'u2:a']);
    expect(calls).toEqual([['u1:a'], ['u2:a'], ['u1:b']]);
  });

  it('serves each request of a failed call through `alone`, a single one too', async () => {
    const alone: number[] = [];
    const batcher = new Batcher<number, string>(
      async () => {
        throw new Error('the batch cannot apply');
      },
      {
        alone: async (n) => {
          alone.push(n);
          if (n === 13) throw new Error('unlucky');
          return `alone ${n}`;
        },
      },
    );
    const results = await Promise.allSettled([12, 13].map((n) => batcher.submit(n)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 'alone 12' },
      { status: 'rejected', reason: new Error('unlucky') },
    ]);
    await expect(batcher.submit(14)).resolves.toBe('alone 14');
    expect(alone).toEqual([12, 13, 14]);
  });
});
