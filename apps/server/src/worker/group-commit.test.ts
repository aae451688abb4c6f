import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit';

/** A group commit whose writes are recorded and stay in flight until their gate is released. */
function heldWrites(concurrency: number, minBatch?: number) {
  const writes: number[][] = [];
  const gates: (() => void)[] = [];
  const group = new GroupCommit<number>(
    async (items) => {
      writes.push([...items]);
      await new Promise<void>((resolve) => gates.push(resolve));
    },
    1000,
    concurrency,
    minBatch,
  );
  return { group, writes, gates };
}

describe('GroupCommit', () => {
  it('writes requests of one turn together and settles each caller after the write', async () => {
    const writes: number[][] = [];
    const group = new GroupCommit<number>(async (items) => {
      writes.push([...items]);
    });
    await Promise.all([1, 2, 3].map((n) => group.submit(n)));
    await group.submit(4);
    expect(writes).toEqual([[1, 2, 3], [4]]);
  });

  it('groups what arrives while a write is in flight, in batches of at most maxBatch', async () => {
    const writes: number[][] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const group = new GroupCommit<number>(async (items) => {
      writes.push([...items]);
      if (items[0] === 0) await gate;
    }, 2);
    const first = group.submit(0);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [1, 2, 3].map((n) => group.submit(n));
    release();
    await Promise.all([first, ...later]);
    expect(writes).toEqual([[0], [1, 2], [3]]);
  });

  it('fails only the request whose row is bad: a failed batch is written one by one', async () => {
    const group = new GroupCommit<number>(async (items) => {
      if (items.includes(13)) throw new Error('bad row 13');
    });
    const results = await Promise.allSettled([12, 13, 14].map((n) => group.submit(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await expect(group.submit(15)).resolves.toBeUndefined();
  });

  it('keeps up to `concurrency` writes in flight, each with what waited when it started', async () => {
    const { group, writes, gates } = heldWrites(2);
    const first = group.submit(0);
    await new Promise((resolve) => setImmediate(resolve));
    const second = group.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    const queued = [2, 3].map((n) => group.submit(n));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([[0], [1]]);
    gates.shift()?.();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([[0], [1], [2, 3]]);
    for (const release of gates.splice(0)) release();
    await new Promise((resolve) => setImmediate(resolve));
    for (const release of gates.splice(0)) release();
    await Promise.all([second, ...queued]);
  });

  it('splits a wave evenly over the free writes, never below minBatch', async () => {
    const { group, writes, gates } = heldWrites(4, 2);
    const wave = Array.from({ length: 12 }, (_, n) => group.submit(n));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.map((w) => w.length)).toEqual([3, 3, 3, 3]);
    expect(writes.flat()).toEqual(Array.from({ length: 12 }, (_, n) => n));
    for (const release of gates.splice(0)) release();
    await Promise.all(wave);

    writes.length = 0;
    const small = [20, 21, 22].map((n) => group.submit(n));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([[20, 21], [22]]);
    for (const release of gates.splice(0)) release();
    await Promise.all(small);
  });
});
