import type { UserRow } from './users.repo';

/** The administrator role: users.role 'admin' or the e-mail of ADMIN_EMAIL. */
export function isAdmin(user: UserRow, adminEmail: string | undefined): boolean {
  return user.role === 'admin' || (!!adminEmail && user.email.toLowerCase() === adminEmail.toLowerCase());
}
