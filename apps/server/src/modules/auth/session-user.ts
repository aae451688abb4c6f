import type { SessionUser } from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { platformDepsOf } from '../../config/platform-runtime';
import type { UserRow } from '../identity';
import { isAdmin } from '../identity';
import { walletFieldsOf } from '../platform';

/** The user as the API shows it: never the password hash. */
export function toSessionUser(row: UserRow): SessionUser {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    contactNo: row.contactNo,
    userCode: row.userCode,
    role: row.role,
    usdtRewardToken: '0',
  };
}

/** The session's user data: with subscriptions on, also the platform wallet fields (docs/spec/02-bots-wallet-account.md §3). */
export async function sessionUserOf(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'>,
  row: UserRow,
): Promise<SessionUser> {
  // ADMIN_EMAIL makes an administrator without a role in the database: the web app must know it too.
  const user = {
    ...toSessionUser(row),
    ...(isAdmin(row, deps.config.adminEmail) ? { role: 'admin' as const } : {}),
  };
  if (!deps.config.subscriptionEnabled) return user;
  return { ...user, ...(await walletFieldsOf(platformDepsOf(deps), row.id, row.userCode)) };
}
