import { adminActions, type Db, type Tx } from '@gridbot/db';
import type { UserRow } from '../auth/auth.repo';

/** Every administrator action is logged with who, when and what, in the action's transaction. */
export async function logAdminAction(
  db: Db | Tx,
  admin: UserRow,
  action: string,
  target: string | null,
  details: unknown,
): Promise<void> {
  await db
    .insert(adminActions)
    .values({ adminUserId: admin.id, adminEmail: admin.email, action, target, details });
}
