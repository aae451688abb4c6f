import type { UserRow } from './users.repo';

/**
 * How long a process trusts a session it looked up when revocations may not reach it. A token revoked by
 * another process (logout, password reset) stops working here within this time; in the process that revoked
 * it, at once (`forget*`). With revocations shared over the bus, longer (session-revocations.ts).
 */
export const SESSION_CACHE_TTL_MS = 3_000;
const MAX_ENTRIES = 100_000;

/** A live session as the database answered it. */
export interface SessionHit {
  user: UserRow;
  expiresAtMs: number;
}

interface Entry {
  loadedAtMs: number;
  value: Promise<SessionHit | undefined>;
  /** Set once the lookup answered; until then the entry belongs to no one (and every `forgetUser` drops it). */
  userId?: string;
}

/**
 * Token hash → session user, for a few seconds (the dashboard polls four endpoints at once: one lookup, not
 * four). Concurrent requests with the same token share one lookup; unknown or revoked tokens are not kept.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  /** The trust period now (asked at every lookup: it shortens while revocations cannot arrive). */
  ttl: () => number;

  constructor(
    ttlMs = SESSION_CACHE_TTL_MS,
    private readonly maxEntries = MAX_ENTRIES,
  ) {
    this.ttl = () => ttlMs;
  }

  /** The user of a live session at `nowMs`; `load` asks the database when the cached answer is too old. */
  async user(
    tokenHash: string,
    nowMs: number,
    load: () => Promise<SessionHit | undefined>,
  ): Promise<UserRow | undefined> {
    let entry = this.entries.get(tokenHash);
    if (!entry || nowMs - entry.loadedAtMs >= this.ttl() || nowMs < entry.loadedAtMs) {
      const fresh: Entry = { loadedAtMs: nowMs, value: load() };
      entry = fresh;
      this.entries.delete(tokenHash);
      this.entries.set(tokenHash, fresh);
      if (this.entries.size > this.maxEntries) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      const drop = () => {
        if (this.entries.get(tokenHash) === fresh) this.entries.delete(tokenHash);
      };
      fresh.value.then((hit) => {
        if (hit) fresh.userId = hit.user.id;
        else drop();
      }, drop);
    }
    const hit = await entry.value;
    return hit && hit.expiresAtMs > nowMs ? hit.user : undefined;
  }

  /** The session was revoked here: the next request with it asks the database. */
  forgetToken(tokenHash: string): void {
    this.entries.delete(tokenHash);
  }

  /** The user's sessions were revoked or the user row changed: drop them (and lookups still in flight). */
  forgetUser(userId: string): void {
    for (const [key, entry] of this.entries)
      if (entry.userId === undefined || entry.userId === userId) this.entries.delete(key);
  }

  /** Revocations may have been missed (the bus was away): every session is asked again. */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
