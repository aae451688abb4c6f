import { type Db, passwordResets, pendingSignups, sessions, type Tx } from '@gridbot/db';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';

type Conn = Db | Tx;
export type PendingSignupRow = typeof pendingSignups.$inferSelect;

const lower = (value: string) => value.trim().toLowerCase();

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
