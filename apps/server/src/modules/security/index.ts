// What other modules may use of this one; they import nothing else from it (docs/architecture.md §2).
export { deviceOf } from './device';
export { KeyPermissionMonitor } from './key-monitor';
export { inspectKey, storedPermissions, toKeyPermissions } from './key-permissions';
export { LastSeen } from './last-seen';
export { securityRoutes } from './security.routes';
export { keyHint, recordSecurityEvent } from './security-log';
export { knownDevice } from './sessions.repo';
export { checkSecondFactor, hasTwoFactor, requireSecondFactor } from './two-factor.service';
