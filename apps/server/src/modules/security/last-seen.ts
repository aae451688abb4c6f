import type { Db } from '@gridbot/db';
import { touchSession } from './sessions.repo';

/** "Last seen" is written at most once a minute per session: a busy dashboard makes no write per poll. */
const WRITE_EVERY_MS = 60_000;
const MAX_TRACKED = 100_000;

/** When this process last wrote each session's `last_seen_at`. */
export class LastSeen {
  private readonly written = new Map<string, number>();

  constructor(private readonly db: Db) {}

  /** Notes a request with this session; writes `last_seen_at` when the stored value is a minute old. */
  async note(tokenHash: string, now: Date): Promise<void> {
    const last = this.written.get(tokenHash);
    const nowMs = now.getTime();
    if (last !== undefined && nowMs - last < WRITE_EVERY_MS && nowMs >= last) return;
    if (this.written.size >= MAX_TRACKED) this.written.clear();
    this.written.set(tokenHash, nowMs);
    await touchSession(this.db, tokenHash, now);
  }
}
