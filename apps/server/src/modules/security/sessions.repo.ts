import { type Db, sessions, type Tx } from '@gridbot/db';
import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';

type Conn = Db | Tx;

/** The user's live sessions (unrevoked, unexpired), most recently used first. */
export async function liveSessions(db: Conn, userId: string, now: Date) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
}

/** Revokes one session of the user; answers its token hash, or undefined when it is not theirs or not live. */
export async function revokeSessionById(db: Conn, userId: string, sessionId: string, now: Date) {
  const [row] = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ tokenHash: sessions.tokenHash });
  return row?.tokenHash;
}

/** Revokes every live session of the user but the one with `keepTokenHash`; answers the revoked hashes. */
export async function revokeOtherSessions(db: Conn, userId: string, keepTokenHash: string, now: Date) {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(eq(sessions.userId, userId), isNull(sessions.revokedAt), ne(sessions.tokenHash, keepTokenHash)),
    )
    .returning({ tokenHash: sessions.tokenHash });
  return rows.map((row) => row.tokenHash);
}

/** Whether the user signed in before from this address with this browser (else: a new device). */
export async function knownDevice(db: Conn, userId: string, ip: string, userAgent: string | null) {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        eq(sessions.ip, ip),
        userAgent === null ? isNull(sessions.userAgent) : eq(sessions.userAgent, userAgent),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function touchSession(db: Db, tokenHash: string, at: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.tokenHash, tokenHash));
}
