import { type ChangePasswordInput, securityMessages as m, type SessionInfo } from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { HttpError } from '../../lib/http-error';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { sha256 } from '../../lib/tokens';
import { authRateRules } from '../../plugins/rate-limit';
import { endResetLinks, revokeCachedSessions, type UserRow, updatePasswordHash } from '../identity';
import { deviceOf } from './device';
import { recordSecurityEvent } from './security-log';
import * as repo from './sessions.repo';

/** The Security page's list: every live session, the caller's own marked. */
export async function listSessions(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  userId: string,
  token: string,
): Promise<SessionInfo[]> {
  const own = sha256(token);
  const rows = await repo.liveSessions(deps.db, userId, deps.clock.now());
  return rows.map((row) => ({
    id: row.id,
    device: deviceOf(row.userAgent),
    ip: row.ip,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: (row.lastSeenAt ?? row.createdAt).toISOString(),
    current: row.tokenHash === own,
  }));
}

/** "Log out" on one row: its token answers 401 from then on, in every process. */
export async function endSession(
  deps: Pick<AppDeps, 'db' | 'clock' | 'bus' | 'state'>,
  userId: string,
  sessionId: string,
  ip: string,
) {
  const tokenHash = await repo.revokeSessionById(deps.db, userId, sessionId, deps.clock.now());
  if (!tokenHash) throw new HttpError(404, m.sessionNotFound);
  revokeCachedSessions(deps.state.sessions, deps.bus, { tokenHash });
  await recordSecurityEvent(deps.db, { userId, type: 'session_ended', ip });
  return { success: true as const, message: m.sessionEnded };
}

/**
 * Ends every session of the user but the one of `token`, inside the caller's transaction; the answer drops
 * them from the session caches (here and, over the bus, in every process) once that has committed.
 */
export async function endOthers(
  deps: Pick<AppDeps, 'clock' | 'bus' | 'state'>,
  db: Parameters<typeof repo.revokeOtherSessions>[0],
  userId: string,
  token: string,
) {
  const hashes = await repo.revokeOtherSessions(db, userId, sha256(token), deps.clock.now());
  return () => {
    for (const tokenHash of hashes) revokeCachedSessions(deps.state.sessions, deps.bus, { tokenHash });
  };
}

/** "Log out everywhere else": every session but the caller's. */
export async function endOtherSessions(
  deps: Pick<AppDeps, 'db' | 'clock' | 'bus' | 'state'>,
  userId: string,
  token: string,
  ip: string,
) {
  const forget = await endOthers(deps, deps.db, userId, token);
  forget();
  await recordSecurityEvent(deps.db, { userId, type: 'session_ended', ip, detail: { reason: 'all others' } });
  return { success: true as const, message: m.otherSessionsEnded };
}

/**
 * Change password (current + new): the other sessions end, as someone who knew the old password may hold
 * one; open reset links end too. Guessing the current password counts like a login attempt.
 */
export async function changePassword(
  deps: Pick<AppDeps, 'db' | 'clock' | 'limiter' | 'bus' | 'state'>,
  user: UserRow,
  token: string,
  input: ChangePasswordInput,
  ip: string,
) {
  await deps.limiter.hit(`login:acct:user:${user.id}`, authRateRules.loginPerAccount);
  if (!(await verifyPassword(user.passwordHash, input.currentPassword)))
    throw new HttpError(400, m.currentPasswordWrong, {
      errors: [{ path: 'currentPassword', message: m.currentPasswordWrong }],
    });
  const passwordHash = await hashPassword(input.newPassword);
  const forget = await deps.db.transaction(async (tx) => {
    await updatePasswordHash(tx, user.id, passwordHash);
    await endResetLinks(tx, user.id, deps.clock.now());
    await recordSecurityEvent(tx, { userId: user.id, type: 'password_changed', ip });
    return endOthers(deps, tx, user.id, token);
  });
  forget();
  // The cached row of the caller's own session still holds the old hash.
  revokeCachedSessions(deps.state.sessions, deps.bus, { userId: user.id });
  return { success: true as const, message: m.passwordChanged };
}
