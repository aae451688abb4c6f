import { type Bus, channels } from '../../bus/bus';
import { SESSION_CACHE_TTL_MS, type SessionCache } from './session-cache';

/**
 * How long a process trusts a cached session when every revocation reaches it at once: in a single process
 * (ROLE=all), or over the bus while it is connected. Without the bus it falls back to SESSION_CACHE_TTL_MS.
 */
export const SHARED_SESSION_TTL_MS = 30_000;
/** How long a revocation keeps trying to reach the other processes when Redis is away. */
const RETRY_FOR_MS = 2 * SHARED_SESSION_TTL_MS;
const RETRY_EVERY_MS = 500;

/** Cached sessions to drop: one token (logout) or every session of a user (new password, user row changed). */
export type SessionRevocation = { tokenHash: string } | { userId: string };

/**
 * Drops cached sessions in this process at once and tells the other processes over the bus (when there is
 * one). A message that cannot go out now is sent again until it does: a process that missed it because its
 * own connection was down has cleared its cache on reconnecting (`shareSessionRevocations`).
 */
export function revokeCachedSessions(
  cache: SessionCache,
  bus: Bus | undefined,
  revocation: SessionRevocation,
): void {
  forgetHere(cache, revocation);
  if (!bus) return;
  const message = JSON.stringify(revocation);
  // How long to keep trying is elapsed time, not a business time: the monotonic clock.
  const giveUpAt = performance.now() + RETRY_FOR_MS;
  const attempt = async (): Promise<void> => {
    if ((await bus.publish(channels.sessions, message)) || performance.now() > giveUpAt) return;
    setTimeout(() => void attempt(), RETRY_EVERY_MS).unref();
  };
  void attempt();
}

/**
 * Lets this process trust cached sessions for SHARED_SESSION_TTL_MS: with no bus (one process: every
 * revocation is its own), or while `bus` delivers the other processes' revocations. While the bus is down
 * the short TTL applies again, and the whole cache is dropped when it comes back. Returns the unsubscribe.
 */
export async function shareSessionRevocations(
  cache: SessionCache,
  bus: Bus | undefined,
): Promise<() => Promise<void>> {
  if (!bus) {
    cache.ttl = () => SHARED_SESSION_TTL_MS;
    return async () => undefined;
  }
  const unsubscribe = await bus.subscribe(channels.sessions, (message) => {
    forgetHere(cache, JSON.parse(message) as SessionRevocation);
  });
  bus.onReconnect(() => cache.clear());
  cache.ttl = () => (bus.healthy() ? SHARED_SESSION_TTL_MS : SESSION_CACHE_TTL_MS);
  return unsubscribe;
}

function forgetHere(cache: SessionCache, revocation: SessionRevocation): void {
  if ('tokenHash' in revocation) cache.forgetToken(revocation.tokenHash);
  else cache.forgetUser(revocation.userId);
}
