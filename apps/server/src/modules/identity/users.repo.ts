import { type Db, passwordResets, sessions, type Tx, users } from '@gridbot/db';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { anyOf } from '../../lib/any-of.repo';
import { batchedRead, byKey, distinct } from '../../lib/batched-read';

type Conn = Db | Tx;
export type UserRow = typeof users.$inferSelect;

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

export async function insertUser(db: Conn, row: typeof users.$inferInsert): Promise<UserRow> {
  const [created] = await db.insert(users).values(row).returning();
  if (!created) throw new Error('insert into users returned no row');
  return created;
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
