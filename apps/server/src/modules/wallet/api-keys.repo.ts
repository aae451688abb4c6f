import { apiKeys, type Db, type Tx } from '@gridbot/db';
import { eq } from 'drizzle-orm';

export async function findApiKeys(db: Db, userId: string) {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.userId, userId));
  return row;
}

export async function saveApiKeys(
  db: Db | Tx,
  userId: string,
  apiKey: string,
  secretSealed: string,
  at: Date,
) {
  await db
    .insert(apiKeys)
    .values({ userId, apiKey, secretSealed, updatedAt: at })
    .onConflictDoUpdate({ target: apiKeys.userId, set: { apiKey, secretSealed, updatedAt: at } });
}

export async function deleteApiKeys(db: Db | Tx, userId: string) {
  await db.delete(apiKeys).where(eq(apiKeys.userId, userId));
}
