import { securityMessages as m, type TwoFactorSetup, type TwoFactorStatus } from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { HttpError } from '../../lib/http-error';
import { authRateRules } from '../../plugins/rate-limit';
import type { UserRow } from '../identity';
import { isAdmin, requireAdminTwoFactor } from '../identity';
import { recordSecurityEvent } from './security-log';
import { endOthers } from './sessions.service';
import {
  acceptedStep,
  isTotpCode,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUrl,
  recoveryCodeHash,
} from './totp';
import * as repo from './two-factor.repo';

export const hasTwoFactor = (user: UserRow) => user.totpSecretSealed !== null;

export async function twoFactorStatus(
  deps: Pick<AppDeps, 'db' | 'config'>,
  user: UserRow,
): Promise<TwoFactorStatus> {
  return {
    enabled: hasTwoFactor(user),
    recoveryCodesLeft: hasTwoFactor(user) ? await repo.recoveryCodesLeft(deps.db, user.id) : 0,
    required: isAdmin(user, deps.config.adminEmail) && (await requireAdminTwoFactor(deps.db)),
  };
}

/** A new secret waiting for its first code; the QR code on the page carries `otpauthUrl`. */
export async function startSetup(
  deps: Pick<AppDeps, 'db' | 'secrets'>,
  user: UserRow,
): Promise<TwoFactorSetup> {
  if (hasTwoFactor(user)) throw new HttpError(400, m.twoFactorAlreadyOn);
  const secret = newTotpSecret();
  await repo.setPendingSecret(deps.db, user.id, deps.secrets.seal(secret));
  return { secret, otpauthUrl: otpauthUrl(secret, user.email) };
}

/**
 * The first code confirms the secret: 2FA is on, and the ten recovery codes are answered this once. The
 * user's other sessions end, as after a password change: someone who signed in with a stolen password must
 * not keep a session that two-factor sign-in was turned on to keep them out of. The caller's own (`token`)
 * stays.
 */
export async function enable(
  deps: Pick<AppDeps, 'db' | 'clock' | 'limiter' | 'secrets' | 'bus' | 'state'>,
  user: UserRow,
  token: string,
  code: string,
  ip: string,
) {
  if (hasTwoFactor(user)) throw new HttpError(400, m.twoFactorAlreadyOn);
  if (!user.totpPendingSealed) throw new HttpError(400, m.twoFactorSetupMissing);
  await deps.limiter.hit(`2fa:acct:${user.id}`, authRateRules.loginPerAccount);
  const secret = deps.secrets.open(user.totpPendingSealed);
  const step = acceptedStep(secret, code, deps.clock.now().getTime());
  if (step === undefined) throw new HttpError(400, m.codeInvalid);
  const codes = newRecoveryCodes();
  const forget = await deps.db.transaction(async (tx) => {
    await repo.enableTwoFactor(
      tx,
      user.id,
      user.totpPendingSealed as string,
      step,
      codes.map(recoveryCodeHash),
    );
    await recordSecurityEvent(tx, { userId: user.id, type: 'two_factor_on', ip });
    return endOthers(deps, tx, user.id, token);
  });
  forget();
  return { success: true as const, message: m.twoFactorEnabled, recoveryCodes: codes };
}

export async function disable(
  deps: Pick<AppDeps, 'db' | 'clock' | 'limiter' | 'secrets'>,
  user: UserRow,
  code: string,
  ip: string,
) {
  if (!hasTwoFactor(user)) throw new HttpError(400, m.twoFactorNotOn);
  await requireSecondFactor(deps, user, code, ip);
  await deps.db.transaction(async (tx) => {
    await repo.disableTwoFactor(tx, user.id);
    await recordSecurityEvent(tx, { userId: user.id, type: 'two_factor_off', ip });
  });
  return { success: true as const, message: m.twoFactorDisabled };
}

/**
 * Whether `code` is the user's current TOTP code (never one accepted before) or an unused recovery code,
 * which is then spent and logged. The caller counts the attempt against a rate limit first.
 */
export async function checkSecondFactor(
  deps: Pick<AppDeps, 'db' | 'clock' | 'secrets'>,
  user: UserRow,
  code: string,
  ip: string,
) {
  if (!user.totpSecretSealed) return false;
  const now = deps.clock.now();
  if (isTotpCode(code)) {
    const step = acceptedStep(deps.secrets.open(user.totpSecretSealed), code.trim(), now.getTime());
    return step !== undefined && (await repo.claimTotpStep(deps.db, user.id, step));
  }
  if (!(await repo.useRecoveryCode(deps.db, user.id, recoveryCodeHash(code), now))) return false;
  await recordSecurityEvent(deps.db, { userId: user.id, type: 'recovery_code_used', ip });
  return true;
}

/**
 * The step-up check before changing keys, requesting a withdrawal or turning 2FA off: nothing to do
 * without 2FA; else a right code, rate-limited like the password. 403 (not 401: the session is fine).
 */
export async function requireSecondFactor(
  deps: Pick<AppDeps, 'db' | 'clock' | 'limiter' | 'secrets'>,
  user: UserRow,
  code: string | undefined,
  ip: string,
) {
  if (!hasTwoFactor(user)) return;
  if (!code) throw new HttpError(403, m.codeRequired, { twoFactorRequired: true });
  await deps.limiter.hit(`2fa:acct:${user.id}`, authRateRules.loginPerAccount);
  if (!(await checkSecondFactor(deps, user, code, ip)))
    throw new HttpError(403, m.codeInvalid, { twoFactorRequired: true });
}
