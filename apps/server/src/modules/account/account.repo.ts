import { type Db, users } from '@gridbot/db';
import { eq } from 'drizzle-orm';

export async function recordDisclaimerAgreement(db: Db, userId: string, at: Date): Promise<void> {
  await db.update(users).set({ disclaimerAgreedAt: at }).where(eq(users.id, userId));
}
