// What other modules may use of this one; they import nothing else from it (docs/architecture.md §2).
export { requireAdminTwoFactor, setRequireAdminTwoFactor } from './admin-policy.repo';
export { isAdmin } from './admin-role';
export { SessionCache } from './session-cache';
export { revokeCachedSessions, shareSessionRevocations } from './session-revocations';
export {
  endResetLinks,
  findLiveSession,
  findUserByEmail,
  findUserByLoginId,
  findUserIdByUserCode,
  insertUser,
  isUsernameTaken,
  type LiveSessionReads,
  liveSessionReads,
  revokeAllSessions,
  revokeSession,
  type UserRow,
  updatePasswordHash,
} from './users.repo';
