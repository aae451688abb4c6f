import { describe, expect, it, vi } from 'vitest';
import { type Bus, MemoryBus } from '../../bus/bus';
import { SESSION_CACHE_TTL_MS, SessionCache } from './session-cache';
import { revokeCachedSessions, SHARED_SESSION_TTL_MS, shareSessionRevocations } from './session-revocations';
import type { UserRow } from './users.repo';

// Each "process" is its own cache.
const processCache = () => new SessionCache();
const user = { id: 'u1' } as UserRow;
const hit = () => Promise.resolve({ user, expiresAtMs: Number.MAX_SAFE_INTEGER });

/** Counts the database lookups a cache makes for one token at the given times. */
async function lookups(cache: SessionCache, times: number[]): Promise<number> {
  const load = vi.fn(hit);
  for (const t of times) await cache.user('hash-1', t, load);
  return load.mock.calls.length;
}

/** A bus whose connection the test cuts: publish fails and healthy() is false while it is down. */
class CuttableBus extends MemoryBus {
  up = true;
  /** Publishes refused while down. */
  refused = 0;
  private readonly reconnects: Array<() => void> = [];
  override async publish(channel: string, message: string): Promise<boolean> {
    if (this.up) return super.publish(channel, message);
    this.refused += 1;
    return false;
  }
  override healthy(): boolean {
    return this.up;
  }
  override onReconnect(listener: () => void): void {
    this.reconnects.push(listener);
  }
  reconnect(): void {
    this.up = true;
    for (const listener of this.reconnects) listener();
  }
}

describe('cached sessions across processes', () => {
  it('without a shared bus a process trusts a session for 3 s; sharing revocations makes it 30 s', async () => {
    expect(await lookups(processCache(), [0, SESSION_CACHE_TTL_MS - 1, SESSION_CACHE_TTL_MS])).toBe(2);
    const cache = processCache();
    await shareSessionRevocations(cache, new MemoryBus());
    expect(await lookups(cache, [0, 20_000, SHARED_SESSION_TTL_MS - 1, SHARED_SESSION_TTL_MS])).toBe(2);
  });

  it('a logout in one process ends the cached session in the others at once', async () => {
    const bus: Bus = new MemoryBus();
    const [a, b] = [processCache(), processCache()];
    await shareSessionRevocations(a, bus);
    await shareSessionRevocations(b, bus);
    expect(await lookups(b, [0])).toBe(1);
    revokeCachedSessions(a, bus, { tokenHash: 'hash-1' });
    await vi.waitFor(async () => expect(await lookups(b, [1])).toBe(1));
  });

  it('while the bus is down the short trust applies; on reconnecting every cached session is asked again', async () => {
    const bus = new CuttableBus();
    const cache = processCache();
    await shareSessionRevocations(cache, bus);
    expect(await lookups(cache, [0])).toBe(1);
    bus.up = false;
    expect(await lookups(cache, [SESSION_CACHE_TTL_MS - 1])).toBe(0);
    expect(await lookups(cache, [SESSION_CACHE_TTL_MS])).toBe(1);
    bus.reconnect();
    expect(await lookups(cache, [SESSION_CACHE_TTL_MS + 1])).toBe(1);
  });

  it('a revocation that cannot go out now is sent again until it does', async () => {
    const bus = new CuttableBus();
    const [a, b] = [processCache(), processCache()];
    await shareSessionRevocations(a, bus);
    await shareSessionRevocations(b, bus);
    expect(await lookups(b, [0])).toBe(1);
    bus.up = false;
    revokeCachedSessions(a, bus, { userId: 'u1' });
    await vi.waitFor(() => expect(bus.refused).toBeGreaterThan(0));
    bus.up = true; // back without a reconnect of b: only the retried message can reach it
    await vi.waitFor(async () => expect(await lookups(b, [2])).toBe(1), { timeout: 3_000 });
  });
});
