import { type Db, passwordResets, pendingSignups, sessions, type Tx, users } from '@gridbot/db';
import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { anyOf } from '../../lib/any-of.repo';
import { batchedRead, byKey, distinct } from '../../lib/batched-read';

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

/** Adds a sign-up attempt; an earlier attempt for the same e-mail is left exactly as it was. */
export async function insertSignupAttempt(
  db: Conn,
  row: typeof pendingSignups.$inferInsert,
): Promise<string> {
  const [created] = await db.insert(pendingSignups).values(row).returning({ id: pendingSignups.id });
  if (!created) throw new Error('insert into pending_signups returned no row');
  return created.id;
}

/** Every pending attempt for an e-mail, newest first. */
export async function signupAttempts(db: Conn, email: string): Promise<PendingSignupRow[]> {
  return db
    .select()
    .from(pendingSignups)
    .where(eq(pendingSignups.emailLower, lower(email)))
    .orderBy(desc(pendingSignups.createdAt), desc(pendingSignups.lastSentAt));
}

/** Attempts of an e-mail nobody finished within a day: their codes are long dead. */
export async function deleteStaleSignupAttempts(db: Conn, email: string, before: Date): Promise<void> {
  await db
    .delete(pendingSignups)
    .where(and(eq(pendingSignups.emailLower, lower(email)), lt(pendingSignups.createdAt, before)));
}

/**
 * Counts one wrong code against every attempt of the e-mail (a guess is a guess whichever code it aimed
 * at); returns the highest count. Atomic, so parallel guesses cannot slip past the limit.
 */
export async function countFailedOtp(db: Conn, email: string): Promise<number> {
  const rows = await db
    .update(pendingSignups)
    .set({ failedAttempts: sql`${pendingSignups.failedAttempts} + 1` })
    .where(eq(pendingSignups.emailLower, lower(email)))
    .returning({ failedAttempts: pendingSignups.failedAttempts });
  return Math.max(0, ...rows.map((r) => r.failedAttempts));
}

/** A new code for one attempt (resend); its sign-up data stays as it was. */
export async function replaceOtp(
  db: Conn,
  attemptId: string,
  otpHash: string,
  expiresAt: Date,
  sentAt: Date,
) {
  await db
    .update(pendingSignups)
    .set({ otpHash, otpExpiresAt: expiresAt, lastSentAt: sentAt, failedAttempts: 0 })
    .where(eq(pendingSignups.id, attemptId));
}

/** Once an account exists for the e-mail, no other attempt for it may be verified. */
export async function deletePendingSignups(db: Conn, email: string): Promise<void> {
  await db.delete(pendingSignups).where(eq(pendingSignups.emailLower, lower(email)));
}

export async function insertUser(db: Conn, row: typeof users.$inferInsert): Promise<UserRow> {
  const [created] = await db.insert(users).values(row).returning();
  if (!created) throw new Error('insert into users returned no row');
  return created;
}

export async function insertSession(
  db: Conn,
  userId: string,
  tokenHash: string,
  expiresAt: Date,
  ip: string | null = null,
  userAgent: string | null = null,
) {
  await db.insert(sessions).values({ userId, tokenHash, expiresAt, ip, userAgent, lastSeenAt: null });
}

/** Whether the account ever signed in from this address (its owner's known device). */
export async function signedInFrom(db: Conn, userId: string, ip: string): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.ip, ip)))
    .limit(1);
  return row !== undefined;
}

/**
 * Live sessions of many requests in one statement when they meet (see batched-read.ts). One per process
 * (`ProcessState.liveSessions`): its requests share the statement.
 */
export function liveSessionReads(db: Db) {
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
}

export type LiveSessionReads = ReturnType<typeof liveSessionReads>;

/** The user of an unrevoked session and when it expires (every request without a cached session asks). */
export async function findLiveSession(reads: LiveSessionReads, tokenHash: string) {
  const [row] = await reads.submit(tokenHash);
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

/** Ends every reset link of the user that is still open (another link was used, or the password changed). */
export async function endResetLinks(db: Conn, userId: string, now: Date): Promise<void> {
  await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

export async function updatePasswordHash(db: Conn, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}
