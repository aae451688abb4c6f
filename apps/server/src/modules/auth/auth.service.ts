import {
  type AuthResponse,
  type LoginInput,
  authMessages as m,
  OTP_MAX_ATTEMPTS,
  OTP_RESEND_WAIT_SECONDS,
  OTP_VALID_MINUTES,
  RESET_LINK_VALID_MINUTES,
  type SignupInput,
  type VerifyOtpInput,
} from '@gridbot/shared';
import type { AppDeps } from '../../deps';
import { HttpError } from '../../lib/http-error';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { newOtp, newSecretToken, newUserCode, sha256 } from '../../lib/tokens';
import { otpMail, resetMail } from '../../mail/templates';
import * as repo from './auth.repo';
import { revokeCachedSessions } from './session-revocations';
import { sessionUserOf } from './session-user';

const SESSION_DAYS = 30;
const MINUTE_MS = 60_000;

// A real hash to verify against when the login id is unknown, so both paths take the same time.
const decoyHash = hashPassword('decoy-password-for-timing');

async function issueSession(deps: AppDeps, user: repo.UserRow, message: string): Promise<AuthResponse> {
  const token = newSecretToken();
  const expiresAt = new Date(deps.clock.now().getTime() + SESSION_DAYS * 24 * 60 * MINUTE_MS);
  await repo.insertSession(deps.db, user.id, sha256(token), expiresAt);
  return { success: true, message, token, accessToken: token, user: await sessionUserOf(deps, user) };
}

export async function login(deps: AppDeps, input: LoginInput): Promise<AuthResponse> {
  const user = await repo.findUserByLoginId(deps.db, input.email);
  const ok = await verifyPassword(user?.passwordHash ?? (await decoyHash), input.password);
  if (!user || !ok) throw new HttpError(401, m.invalidCredentials);
  return issueSession(deps, user, 'Logged in.');
}

async function ensureAvailable(deps: AppDeps, email: string, username: string): Promise<void> {
  if (await repo.findUserByEmail(deps.db, email)) throw new HttpError(409, m.emailTaken);
  if (await repo.isUsernameTaken(deps.db, username)) throw new HttpError(409, m.usernameTaken);
}

/** Checks the sign-up, keeps it pending and mails a code; the account is created by verifyOtp. */
export async function signup(deps: AppDeps, input: SignupInput): Promise<{ success: true; message: string }> {
  await ensureAvailable(deps, input.email, input.username);
  const referredBy = input.referralId ? await repo.findUserIdByUserCode(deps.db, input.referralId) : null;
  if (input.referralId && !referredBy) throw new HttpError(400, m.referralUnknown);

  const now = deps.clock.now();
  const existing = await repo.findPendingSignup(deps.db, input.email);
  if (existing) assertResendAllowed(existing, now);

  const code = newOtp();
  await repo.savePendingSignup(deps.db, {
    emailLower: input.email.toLowerCase(),
    email: input.email,
    username: input.username,
    contactNo: input.contactNo,
    passwordHash: await hashPassword(input.password),
    referredBy,
    otpHash: sha256(code),
    otpExpiresAt: new Date(now.getTime() + OTP_VALID_MINUTES * MINUTE_MS),
    failedAttempts: 0,
    lastSentAt: now,
  });
  await deps.mailer.send(otpMail(input.email, code));
  return { success: true, message: m.otpSent };
}

function assertResendAllowed(pending: repo.PendingSignupRow, now: Date): void {
  const waitedMs = now.getTime() - pending.lastSentAt.getTime();
  const leftSeconds = Math.ceil((OTP_RESEND_WAIT_SECONDS * 1000 - waitedMs) / 1000);
  if (leftSeconds > 0)
    throw new HttpError(429, m.otpResendWait(leftSeconds), { retryAfterSeconds: leftSeconds });
}

export async function resendOtp(deps: AppDeps, email: string): Promise<{ success: true; message: string }> {
  const pending = await repo.findPendingSignup(deps.db, email);
  if (!pending) throw new HttpError(400, m.otpNoPending);
  const now = deps.clock.now();
  assertResendAllowed(pending, now);
  const code = newOtp();
  await repo.replaceOtp(
    deps.db,
    email,
    sha256(code),
    new Date(now.getTime() + OTP_VALID_MINUTES * MINUTE_MS),
    now,
  );
  await deps.mailer.send(otpMail(pending.email, code));
  return { success: true, message: m.otpResent };
}

/** Creates the account from the pending sign-up once the right, live code is given. */
export async function verifyOtp(deps: AppDeps, input: VerifyOtpInput): Promise<AuthResponse> {
  const pending = await repo.findPendingSignup(deps.db, input.email);
  if (!pending) throw new HttpError(400, m.otpNoPending);
  if (pending.failedAttempts >= OTP_MAX_ATTEMPTS) throw new HttpError(400, m.otpLocked);
  if (pending.otpExpiresAt.getTime() <= deps.clock.now().getTime()) throw new HttpError(400, m.otpExpired);
  if (sha256(input.otp) !== pending.otpHash) {
    const failures = await repo.countFailedOtp(deps.db, input.email);
    throw new HttpError(400, failures >= OTP_MAX_ATTEMPTS ? m.otpLocked : m.otpInvalid);
  }
  const user = await deps.db.transaction(async (tx) => {
    await ensureAvailable({ ...deps, db: tx }, pending.email, pending.username);
    const created = await insertUserWithCode(tx, pending);
    await repo.deletePendingSignup(tx, pending.email);
    return created;
  });
  return issueSession(deps, user, m.otpVerified);
}

async function insertUserWithCode(tx: Parameters<typeof repo.insertUser>[0], pending: repo.PendingSignupRow) {
  // Referral codes are random; a clash is astronomically rare but must not fail a sign-up.
  for (let attempt = 0; ; attempt += 1) {
    const userCode = newUserCode();
    if (await repo.findUserIdByUserCode(tx, userCode)) {
      if (attempt > 5) throw new Error('could not find a free referral code');
      continue;
    }
    return repo.insertUser(tx, {
      email: pending.email,
      username: pending.username,
      contactNo: pending.contactNo,
      passwordHash: pending.passwordHash,
      referredBy: pending.referredBy,
      userCode,
    });
  }
}

export async function logout(deps: AppDeps, token: string): Promise<void> {
  const hash = sha256(token);
  await repo.revokeSession(deps.db, hash, deps.clock.now());
  revokeCachedSessions(deps.db, deps.bus, { tokenHash: hash });
}

export async function forgotPassword(
  deps: AppDeps,
  email: string,
): Promise<{ success: true; message: string }> {
  const user = await repo.findUserByEmail(deps.db, email);
  // Spec 02 §8 wants 404 'User not found' for an unknown e-mail, so we answer it (and rate-limit the lookups).
  if (!user) throw new HttpError(404, m.userNotFound);
  const token = newSecretToken();
  const expiresAt = new Date(deps.clock.now().getTime() + RESET_LINK_VALID_MINUTES * MINUTE_MS);
  await repo.insertPasswordReset(deps.db, user.id, sha256(token), expiresAt);
  await deps.mailer.send(resetMail(user.email, `${deps.config.publicUrl}/resetpassword/${token}`));
  return { success: true, message: m.resetLinkSent };
}

/** Sets a new password through a single-use link and ends every session of the user. */
export async function resetPassword(deps: AppDeps, token: string, password: string) {
  const passwordHash = await hashPassword(password);
  const now = deps.clock.now();
  const userId = await deps.db.transaction(async (tx) => {
    const userId = await repo.consumePasswordReset(tx, sha256(token), now);
    if (!userId) throw new HttpError(400, m.resetLinkInvalid);
    await repo.updatePasswordHash(tx, userId, passwordHash);
    await repo.revokeAllSessions(tx, userId, now);
    return userId;
  });
  revokeCachedSessions(deps.db, deps.bus, { userId });
  return { success: true as const, message: m.passwordReset };
}
