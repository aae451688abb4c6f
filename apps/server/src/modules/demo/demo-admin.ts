import type { AppDeps } from '../../app/deps';
import { hashPassword } from '../../lib/passwords';
import { newUserCode } from '../../lib/tokens';
import { findUserByEmail, insertUser, isUsernameTaken } from '../identity';

/**
 * The administrator of a demo install: without one, /admin (withdrawal approvals, plans, users) answers 404 to
 * everyone unless ADMIN_EMAIL was set before someone signed up with that address. Like the demo account, its
 * password is printed at start; it is never seeded in production, where the operator names the administrator.
 */
export const DEMO_ADMIN = { email: 'admin@gridbot.local', username: 'admin', password: 'admin1234' } as const;

/** Creates the demo administrator once; an install that already has the address or the name is left alone. */
export async function seedDemoAdmin(deps: Pick<AppDeps, 'db' | 'config'>): Promise<{ created: boolean }> {
  if (deps.config.production) return { created: false };
  if (await findUserByEmail(deps.db, DEMO_ADMIN.email)) return { created: false };
  if (await isUsernameTaken(deps.db, DEMO_ADMIN.username)) return { created: false };
  await insertUser(deps.db, {
    email: DEMO_ADMIN.email,
    username: DEMO_ADMIN.username,
    contactNo: '+10000000002',
    passwordHash: await hashPassword(DEMO_ADMIN.password),
    userCode: newUserCode(),
    role: 'admin',
  });
  return { created: true };
}
