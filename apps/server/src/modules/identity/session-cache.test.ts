import { describe, expect, it } from 'vitest';
import { SessionCache, type SessionHit } from './session-cache';
import type { UserRow } from './users.repo';

const user = (id: string) => ({ id }) as UserRow;
const hit = (id: string, expiresAtMs = 1e15): SessionHit => ({ user: user(id), expiresAtMs });

describe('SessionCache', () => {
  it('asks the database once per token within the time to live, then again', async () => {
    const cache = new SessionCache(1_000);
    let loads = 0;
    const load = async () => {
      loads += 1;
      return hit('u1');
    };
    const users = await Promise.all([cache.user('a', 0, load), cache.user('a', 0, load)]);
    expect(users.map((u) => u?.id)).toEqual(['u1', 'u1']);
    await cache.user('a', 999, load);
    expect(loads).toBe(1);
    await cache.user('a', 1_000, load);
    expect(loads).toBe(2);
  });

  it('keeps neither unknown tokens nor failed lookups', async () => {
    const cache = new SessionCache(1_000);
    expect(await cache.user('a', 0, async () => undefined)).toBeUndefined();
    await expect(cache.user('b', 0, () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(cache.size).toBe(0);
    expect((await cache.user('a', 1, async () => hit('u1')))?.id).toBe('u1');
  });

  it('ends a cached session when it expires', async () => {
    const cache = new SessionCache(1_000);
    expect(await cache.user('a', 0, async () => hit('u1', 500))).toBeDefined();
    expect(await cache.user('a', 500, async () => hit('u1', 500))).toBeUndefined();
  });

  it('forgets a revoked token and every session of a user, lookups in flight included', async () => {
    const cache = new SessionCache(60_000);
    await cache.user('a', 0, async () => hit('u1'));
    await cache.user('b', 0, async () => hit('u1'));
    await cache.user('c', 0, async () => hit('u2'));
    cache.forgetToken('c');
    expect(cache.size).toBe(2);
    let answer: (value: SessionHit) => void = () => undefined;
    const pending = cache.user('d', 0, () => new Promise<SessionHit>((resolve) => (answer = resolve)));
    cache.forgetUser('u1');
    expect(cache.size).toBe(0);
    answer(hit('u1'));
    await pending;
    let loads = 0;
    await cache.user('d', 1, async () => {
      loads += 1;
      return undefined;
    });
    expect(loads).toBe(1);
  });

  it('holds at most its size limit, dropping the oldest', async () => {
    const cache = new SessionCache(60_000, 2);
    for (const token of ['a', 'b', 'c']) await cache.user(token, 0, async () => hit(token));
    expect(cache.size).toBe(2);
  });
});
