import { type Db, passwordResets, pendingSignups, sessions, type Tx, users } from '@gridbot/db';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { anyOf, batchedRead, byKey, distinct } from '../../lib/batched-read';
import { perDb } from '../../lib/per-db';

type Conn = Db | Tx;
export type UserRow = typeof users.$inferSelect;
export type PendingSignupRow = typeof pendingSignups.$inferSelect;

const lower = (value: string) => value.trim().toLowerCase();

export async function findUserByLoginId(db: Conn, loginId: string): Promise<UserRow | undefined> {
  const id = lower(loginId);
  const [row] = await db
    .select()
    .from(users)
    .where(or(sql`lower(${users.email}) = ${id}`, sql`lower(${users.username}) = ${id}`))
    .limit(1);
  return row;
}

export async function findUserByEmail(db: Conn, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${lower(email)}`)
    .limit(1);
  return row;
}

export async function isUsernameTaken(db: Conn, username: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = ${lower(username)}`)
    .limit(1);
  return row !== undefined;
}

export async function findUserIdByUserCode(db: Conn, userCode: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.userCode, userCode.trim().toUpperCase()))
    .limit(1);
  return row?.id;
}

export async function findUserById(db: Conn, userId: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row;
}

export async function savePendingSignup(db: Conn, row: typeof pendingSignups.$inferInsert): Promise<void> {
  await db
    .insert(pendingSignups)
    .values(row)
    .onConflictDoUpdate({
      target: pendingSignups.emailLower,
      set: {
        email: row.email,
        username: row.username,
        contactNo: row.contactNo,
        passwordHash: row.passwordHash,
        referredBy: row.referredBy,
        otpHash: row.otpHash,
        otpExpiresAt: row.otpExpiresAt,
        failedAttempts: 0,
        lastSentAt: row.lastSentAt,
      },
    });
}

export async function findPendingSignup(db: Conn, email: string): Promise<PendingSignupRow | undefined> {
  const [row] = await db
    .select()
    .from(pendingSignups)
    .where(eq(pendingSignups.emailLower, lower(email)))
    .limit(1);
  return row;
}

/** Counts one wrong code; returns the new count. Atomic, so parallel guesses cannot slip past the limit. */
export async function countFailedOtp(db: Conn, email: string): Promise<number> {
  const [row] = await db
    .update(pendingSignups)
    .set({ failedAttempts: sql`${pendingSignups.failedAttempts} + 1` })
    .where(eq(pendingSignups.emailLower, lower(email)))
    .returning({ failedAttempts: pendingSignups.failedAttempts });
  return row?.failedAttempts ?? 0;
}

export async function replaceOtp(db: Conn, email: string, otpHash: string, expiresAt: Date, sentAt: Date) {
  await db
    .update(pendingSignups)
    .set({ otpHash, otpExpiresAt: expiresAt, lastSentAt: sentAt, failedAttempts: 0 })
    .where(eq(pendingSignups.emailLower, lower(email)));
}

export async function deletePendingSignup(db: Conn, email: string): Promise<void> {
  await db.delete(pendingSignups).where(eq(pendingSignups.emailLower, lower(email)));
}

export async function insertUser(db: Conn, row: typeof users.$inferInsert): Promise<UserRow> {
  const [created] = await db.insert(users).values(row).returning();
  if (!created) throw new Error('insert into users returned no row');
  return created;
}

export async function insertSession(db: Conn, userId: string, tokenHash: string, expiresAt: Date) {
  await db.insert(sessions).values({ userId, tokenHash, expiresAt });
}

/** Live sessions of many requests in one statement when they meet (see batched-read.ts). */
const liveSessionReads = (db: Db) =>
  perDb(db, 'live-session', () => {
    const statement = db
      .select({ tokenHash: sessions.tokenHash, user: users, expiresAt: sessions.expiresAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(anyOf(sessions.tokenHash, 'tokenHashes', 'text'), isNull(sessions.revokedAt)))
      .prepare('live_sessions');
    return batchedRead(async (tokenHashes: readonly string[]) => {
      const asked = { tokenHashes: distinct(tokenHashes) };
      const rowsOf = byKey(await statement.execute(asked), (row) => row.tokenHash);
      return tokenHashes.map(rowsOf);
    });
  });

/** The user of an unrevoked session and when it expires (every request without a cached session asks). */
export async function findLiveSession(db: Db, tokenHash: string) {
  const [row] = await liveSessionReads(db).submit(tokenHash);
  return row ? { user: row.user, expiresAtMs: row.expiresAt.getTime() } : undefined;
}

export async function revokeSession(db: Conn, tokenHash: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
}

export async function revokeAllSessions(db: Conn, userId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

export async function insertPasswordReset(db: Conn, userId: string, tokenHash: string, expiresAt: Date) {
  await db.insert(passwordResets).values({ userId, tokenHash, expiresAt });
}

/** Marks a reset link used and returns its user, only if it was unused and unexpired (single use, atomic). */
export async function consumePasswordReset(
  db: Conn,
  tokenHash: string,
  now: Date,
): Promise<string | undefined> {
  const [row] = await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResets.tokenHash, tokenHash),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
      ),
    )
    .returning({ userId: passwordResets.userId });
  return row?.userId;
}

export async function updatePasswordHash(db: Conn, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}
