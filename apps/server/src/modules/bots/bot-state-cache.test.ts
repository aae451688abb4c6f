import { describe, expect, it } from 'vitest';
import { BotStateCache, type LoadedState } from './bot-state-cache';

const stored = new Map<string, LoadedState>();
const put = (id: string, stateVersion: number) =>
  stored.set(id, { id, stateVersion, engineState: { id, v: stateVersion } });
let loads: string[][] = [];
const load = async (ids: string[]) => {
  loads.push(ids);
  return ids.flatMap((id) => (stored.has(id) ? [stored.get(id)!] : []));
};
const heads = () => [...stored.values()].map(({ id, stateVersion }) => ({ id, stateVersion, symbol: 'X' }));

describe('BotStateCache', () => {
  it('reads a state once per version, and again when the version moves', async () => {
    const cache = new BotStateCache();
    put('a', 0);
    put('b', 3);
    loads = [];
    expect(await cache.withStates(heads(), load)).toEqual([
      { id: 'a', stateVersion: 0, symbol: 'X', engineState: { id: 'a', v: 0 } },
      { id: 'b', stateVersion: 3, symbol: 'X', engineState: { id: 'b', v: 3 } },
    ]);
    await cache.withStates(heads(), load);
    expect(loads).toEqual([['a', 'b']]);

    put('b', 4);
    const rows = await cache.withStates(heads(), load);
    expect(loads).toEqual([['a', 'b'], ['b']]);
    expect(rows.map((r) => r.engineState)).toEqual([
      { id: 'a', v: 0 },
      { id: 'b', v: 4 },
    ]);
  });

  it('takes the newer state when it moved between the list and the read, and drops a deleted bot', async () => {
    const cache = new BotStateCache();
    put('c', 1);
    const listed = heads().filter((r) => r.id === 'c');
    put('c', 2);
    expect(await cache.withStates(listed, load)).toEqual([
      { id: 'c', stateVersion: 2, symbol: 'X', engineState: { id: 'c', v: 2 } },
    ]);
    put('d', 0);
    const withD = heads().filter((r) => r.id === 'd');
    stored.delete('d');
    expect(await cache.withStates(withD, load)).toEqual([]);
  });

  it('holds at most its size limit', async () => {
    const cache = new BotStateCache(2);
    stored.clear();
    for (const id of ['e', 'f', 'g']) put(id, 0);
    await cache.withStates(heads(), load);
    expect(cache.size).toBe(2);
  });
});
