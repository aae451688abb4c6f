import { type Db, recoveryCodes, type Tx, users } from '@gridbot/db';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';

type Conn = Db | Tx;

export async function setPendingSecret(db: Conn, userId: string, sealed: string | null) {
  await db.update(users).set({ totpPendingSealed: sealed }).where(eq(users.id, userId));
}

/** Turns 2FA on with the confirmed secret and its fresh recovery codes (replacing any older ones). */
export async function enableTwoFactor(
  db: Tx,
  userId: string,
  sealed: string,
  step: number,
  hashes: string[],
) {
  await db
    .update(users)
    .set({ totpSecretSealed: sealed, totpPendingSealed: null, totpLastStep: step })
    .where(eq(users.id, userId));
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
}

export async function disableTwoFactor(db: Tx, userId: string) {
  await db
    .update(users)
    .set({ totpSecretSealed: null, totpPendingSealed: null, totpLastStep: null })
    .where(eq(users.id, userId));
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

/** Records `step` as used, only if it is later than the last used one: a code is accepted once (atomic). */
export async function claimTotpStep(db: Conn, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Marks an unused recovery code used; false when it is unknown or was used before (atomic). */
export async function useRecoveryCode(db: Conn, userId: string, codeHash: string, now: Date) {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, codeHash),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

export async function recoveryCodesLeft(db: Conn, userId: string): Promise<number> {
  const [row] = await db
    .select({ left: sql<number>`count(*)::integer` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return Number(row?.left ?? 0);
}
