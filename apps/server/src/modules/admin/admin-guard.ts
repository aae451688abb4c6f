import { securityApiPaths, securityMessages } from '@gridbot/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps';
import { HttpError, notFound } from '../../lib/http-error';
import { currentUser, requireUser } from '../../plugins/auth';
import type { UserRow } from '../auth/auth.repo';
import { requireAdminTwoFactor } from '../security/two-factor.repo';

/** The administrator role: users.role 'admin' or the e-mail of ADMIN_EMAIL. */
export function isAdmin(user: UserRow, adminEmail: string | undefined): boolean {
  return user.role === 'admin' || (!!adminEmail && user.email.toLowerCase() === adminEmail.toLowerCase());
}

/**
 * requireUser, then 404 for anyone who is not an administrator (the admin API does not admit it exists), and
 * 403 for an administrator without two-factor sign-in when the platform requires it.
 */
export function requireAdmin(deps: AppDeps) {
  const requireSession = requireUser(deps);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    await requireSession(request, reply);
    const user = currentUser(request);
    if (!isAdmin(user, deps.config.adminEmail)) throw notFound();
    // The setting itself stays reachable, or an administrator without 2FA could never turn it off.
    if (user.totpSecretSealed === null && !request.url.startsWith(securityApiPaths.adminSettings))
      if (await requireAdminTwoFactor(deps.db))
        throw new HttpError(403, securityMessages.adminTwoFactorRequired);
  };
}
