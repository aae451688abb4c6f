import { apiKeys, type Db, type Tx } from '@gridbot/db';
import type { ApiKeyPermissions } from '@gridbot/exchange';
import type { KeyExchange } from '@gridbot/shared';
import { asc, eq, gt } from 'drizzle-orm';

export async function findApiKeys(db: Db, userId: string) {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.userId, userId));
  return row;
}

export async function saveApiKeys(
  db: Db | Tx,
  userId: string,
  key: { apiKey: string; secretSealed: string; exchange: KeyExchange; passphraseSealed?: string | null },
  at: Date,
) {
  // A key without a passphrase clears the one an earlier (OKX) key left.
  const row = { passphraseSealed: null, ...key, updatedAt: at };
  await db
    .insert(apiKeys)
    .values({ userId, ...row })
    .onConflictDoUpdate({ target: apiKeys.userId, set: row });
}

export async function deleteApiKeys(db: Db | Tx, userId: string) {
  await db.delete(apiKeys).where(eq(apiKeys.userId, userId));
}

export async function storePermissions(
  db: Db | Tx,
  userId: string,
  permissions: ApiKeyPermissions,
  at: Date,
) {
  await db
    .update(apiKeys)
    .set({ permissions: { ...permissions }, permissionsCheckedAt: at })
    .where(eq(apiKeys.userId, userId));
}

export async function findStoredPermissions(db: Db, userId: string) {
  const [row] = await db
    .select({ permissions: apiKeys.permissions, at: apiKeys.permissionsCheckedAt })
    .from(apiKeys)
    .where(eq(apiKeys.userId, userId));
  return row;
}

/** Up to `limit` users with saved keys, in id order after `afterUserId`: one page of a pass over all keys. */
export async function keyOwnersAfter(db: Db, afterUserId: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ userId: apiKeys.userId })
    .from(apiKeys)
    .where(gt(apiKeys.userId, afterUserId))
    .orderBy(asc(apiKeys.userId))
    .limit(limit);
  return rows.map((row) => row.userId);
}
