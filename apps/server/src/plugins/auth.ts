import { authMessages, securityApiPaths, securityMessages } from '@gridbot/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../app/deps';
import { HttpError, notFound } from '../lib/http-error';
import { sha256 } from '../lib/tokens';
import { findLiveSession, isAdmin, requireAdminTwoFactor, type UserRow } from '../modules/identity';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by `requireUser`. */
    user: UserRow | null;
    /** The raw bearer token of this request, set by `requireUser`. */
    bearerToken: string | null;
  }
}

/** The bearer token of a request, if it carries one. */
export function readBearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/i.exec(header.trim());
  return match?.[1] ?? null;
}

/**
 * An onRequest hook that answers 401 unless the request carries a live, unrevoked session token (docs/architecture.md §4).
 * It runs before the body is parsed or validated: an anonymous caller learns nothing of a route's form.
 * Sessions are cached for a few seconds (session-cache.ts): a revocation elsewhere takes that long here.
 */
export function requireUser(deps: AppDeps) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = readBearerToken(request);
    if (!token) throw new HttpError(401, authMessages.sessionExpired);
    const hash = sha256(token);
    const { sessions, liveSessions, lastSeen } = deps.state;
    const user = await sessions.user(hash, deps.clock.now().getTime(), () =>
      findLiveSession(liveSessions, hash),
    );
    if (!user) throw new HttpError(401, authMessages.sessionExpired);
    request.user = user;
    request.bearerToken = token;
    await lastSeen.note(hash, deps.clock.now());
  };
}

/** The signed-in user of a guarded route; a route without `requireUser` calling this is a bug. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new Error('currentUser() called on a route without requireUser');
  return request.user;
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
