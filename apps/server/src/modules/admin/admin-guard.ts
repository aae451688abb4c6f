import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps';
import { notFound } from '../../lib/http-error';
import { currentUser, requireUser } from '../../plugins/auth';
import type { UserRow } from '../auth/auth.repo';

/** The administrator role: users.role 'admin' or the e-mail of ADMIN_EMAIL. */
export function isAdmin(user: UserRow, adminEmail: string | undefined): boolean {
  return user.role === 'admin' || (!!adminEmail && user.email.toLowerCase() === adminEmail.toLowerCase());
}

/** requireUser, then 404 for anyone who is not an administrator (the admin API does not admit it exists). */
export function requireAdmin(deps: AppDeps) {
  const requireSession = requireUser(deps);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    await requireSession(request, reply);
    if (!isAdmin(currentUser(request), deps.config.adminEmail)) throw notFound();
  };
}
