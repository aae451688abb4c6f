import { type Db, securitySettings, type Tx } from '@gridbot/db';

type Conn = Db | Tx;

/** Whether the platform asks every administrator for two-factor sign-in (Admin settings). */
export async function requireAdminTwoFactor(db: Conn): Promise<boolean> {
  const [row] = await db.select().from(securitySettings).limit(1);
  return row?.requireAdminTwoFactor ?? false;
}

/** Sets whether administrators must use two-factor sign-in. */
export async function setRequireAdminTwoFactor(db: Conn, value: boolean) {
  await db
    .insert(securitySettings)
    .values({ id: 1, requireAdminTwoFactor: value })
    .onConflictDoUpdate({ target: securitySettings.id, set: { requireAdminTwoFactor: value } });
}
