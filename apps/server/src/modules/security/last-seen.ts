import type { Db } from '@gridbot/db';
import { touchSession } from './sessions.repo';

/** "Last seen" is written at most once a minute per session: a busy dashboard makes no write per poll. */
const WRITE_EVERY_MS = 60_000;
const MAX_TRACKED = 100_000;
const written = new WeakMap<Db, Map<string, number>>();

/** Notes a request with this session; writes `last_seen_at` when the stored value is a minute old. */
export async function noteSeen(db: Db, tokenHash: string, now: Date): Promise<void> {
  let seen = written.get(db);
  if (!seen) {
    seen = new Map();
    written.set(db, seen);
  }
  const last = seen.get(tokenHash);
  const nowMs = now.getTime();
  if (last !== undefined && nowMs - last < WRITE_EVERY_MS && nowMs >= last) return;
  if (seen.size >= MAX_TRACKED) seen.clear();
  seen.set(tokenHash, nowMs);
  await touchSession(db, tokenHash, now);
}
