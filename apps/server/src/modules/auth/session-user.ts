import type { SessionUser } from '@gridbot/shared';
import type { UserRow } from './auth.repo';

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
