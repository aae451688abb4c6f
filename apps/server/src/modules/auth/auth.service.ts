import {
  type AuthResponse,
  type LoginInput,
  authMessages as m,
  OTP_MAX_ATTEMPTS,
  OTP_RESEND_WAIT_SECONDS,
  OTP_VALID_MINUTES,
  RESET_LINK_VALID_MINUTES,
  type SignupInput,
  securityMessages as sm,
  type VerifyOtpInput,
} from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { HttpError } from '../../lib/http-error';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { newOtp, newSecretToken, newUserCode, sha256 } from '../../lib/tokens';
import { otpMail, resetMail } from '../../mail/templates';
import { authRateRules } from '../../plugins/rate-limit';
import {
  endResetLinks,
  findUserByEmail,
  findUserByLoginId,
  findUserIdByUserCode,
  insertUser,
  isUsernameTaken,
  revokeAllSessions,
  revokeCachedSessions,
  revokeSession,
  type UserRow,
  updatePasswordHash,
} from '../identity';
import { checkSecondFactor, deviceOf, hasTwoFactor, knownDevice, recordSecurityEvent } from '../security';
import * as repo from './auth.repo';
import { sessionUserOf } from './session-user';

const SESSION_DAYS = 30;
const MINUTE_MS = 60_000;

// A real hash to verify against when the login id is unknown, so both paths take the same time.
const decoyHash = hashPassword('decoy-password-for-timing');

/** Where a sign-in comes from: the address and the browser's User-Agent. */
export interface Origin {
  ip: string;
  userAgent: string | null;
}

async function issueSession(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'>,
  user: UserRow,
  message: string,
  origin: Origin,
): Promise<AuthResponse> {
  const token = newSecretToken();
  const expiresAt = new Date(deps.clock.now().getTime() + SESSION_DAYS * 24 * 60 * MINUTE_MS);
  await repo.insertSession(deps.db, user.id, sha256(token), expiresAt, origin.ip, origin.userAgent);
  return { success: true, message, token, accessToken: token, user: await sessionUserOf(deps, user) };
}

/**
 * Login limits (docs/trading-rules.md §3 "rate-limit auth"): per IP for everything, and per account, not per typed id,
 * so the e-mail and the username of one account share one count.
 *
 * Lockout design: a known-device exemption. Once strangers have spent an account's attempts, a device
 * that signed in to that account before (same address, see `signedInFrom`) still gets its own, separate
 * count: the owner at home logs in while the account is under attack elsewhere. A hard lock for everyone
 * would let any stranger lock the owner out; a delay alone would not either (the attacker keeps it full).
 * A new device of the owner's waits until the window ends, like the attacker.
 */
async function limitAccountLogin(
  deps: Pick<AppDeps, 'db' | 'limiter'>,
  user: UserRow | undefined,
  loginId: string,
  ip: string,
) {
  const account = user ? `user:${user.id}` : `id:${loginId.trim().toLowerCase()}`;
  const knownDevice = user ? await repo.signedInFrom(deps.db, user.id, ip) : false;
  const key = knownDevice ? `login:acct:${account}:known:${ip}` : `login:acct:${account}`;
  await deps.limiter.hit(key, authRateRules.loginPerAccount);
  return key;
}

/**
 * Password, then (with two-factor sign-in on) the code sent with it again: a right password without a
 * code answers 401 with `twoFactorRequired`, and every code attempt counts against the login limits. The
 * sign-in counts once: the right password's step that asks for the code gives its attempt back, and the
 * request with the code (the password checked again with it) counts it. A wrong password always counts.
 */
export async function login(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'limiter' | 'secrets'>,
  input: LoginInput,
  origin: Origin,
): Promise<AuthResponse> {
  const { ip } = origin;
  await deps.limiter.hit(`login:ip:${ip}`, authRateRules.loginPerIp);
  const user = await findUserByLoginId(deps.db, input.email);
  const accountKey = await limitAccountLogin(deps, user, input.email, ip);
  const ok = await verifyPassword(user?.passwordHash ?? (await decoyHash), input.password);
  if (!user) throw new HttpError(401, m.invalidCredentials);
  const device = deviceOf(origin.userAgent);
  if (!ok) {
    await recordSecurityEvent(deps.db, { userId: user.id, type: 'login_failed', ip, detail: { device } });
    throw new HttpError(401, m.invalidCredentials);
  }
  if (hasTwoFactor(user)) {
    if (!input.code) {
      await Promise.all([deps.limiter.forgive(`login:ip:${ip}`), deps.limiter.forgive(accountKey)]);
      throw new HttpError(401, sm.codeRequired, { twoFactorRequired: true });
    }
    if (!(await checkSecondFactor(deps, user, input.code, ip))) {
      await recordSecurityEvent(deps.db, {
        userId: user.id,
        type: 'login_failed',
        ip,
        detail: { device, reason: 'wrong code' },
      });
      throw new HttpError(401, sm.codeInvalid, { twoFactorRequired: true });
    }
  }
  const known = await knownDevice(deps.db, user.id, ip, origin.userAgent);
  await recordSecurityEvent(deps.db, {
    userId: user.id,
    type: known ? 'login_success' : 'login_new_device',
    ip,
    detail: { device },
  });
  return issueSession(deps, user, 'Logged in.', origin);
}

async function ensureAvailable(deps: Pick<AppDeps, 'db'>, email: string, username: string): Promise<void> {
  if (await findUserByEmail(deps.db, email)) throw new HttpError(409, m.emailTaken);
  if (await isUsernameTaken(deps.db, username)) throw new HttpError(409, m.usernameTaken);
}

const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * Checks the sign-up, keeps it as a new pending attempt and mails that attempt's code; the account is
 * created by verifyOtp. An earlier attempt for the same e-mail is never changed: whoever signs up again
 * for someone else's unverified e-mail starts an attempt of their own, which only its own code verifies.
 */
export async function signup(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'clock'>,
  input: SignupInput,
): Promise<{ success: true; message: string }> {
  await ensureAvailable(deps, input.email, input.username);
  const referredBy = input.referralId ? await findUserIdByUserCode(deps.db, input.referralId) : null;
  if (input.referralId && !referredBy) throw new HttpError(400, m.referralUnknown);

  const now = deps.clock.now();
  assertResendAllowed(await repo.signupAttempts(deps.db, input.email), now);
  await repo.deleteStaleSignupAttempts(deps.db, input.email, new Date(now.getTime() - DAY_MS));

  const code = newOtp();
  await repo.insertSignupAttempt(deps.db, {
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
    // The app's clock, not the database's: stale attempts are judged by the same clock.
    createdAt: now,
  });
  await deps.mailer.send(otpMail(input.email, code));
  return { success: true, message: m.otpSent };
}

/** 30 s since the last code mailed to the e-mail, whichever attempt it was for. */
function assertResendAllowed(attempts: repo.PendingSignupRow[], now: Date): void {
  if (attempts.length === 0) return;
  const lastSentMs = Math.max(...attempts.map((a) => a.lastSentAt.getTime()));
  const waitedMs = now.getTime() - lastSentMs;
  const leftSeconds = Math.ceil((OTP_RESEND_WAIT_SECONDS * 1000 - waitedMs) / 1000);
  if (leftSeconds > 0)
    throw new HttpError(429, m.otpResendWait(leftSeconds), { retryAfterSeconds: leftSeconds });
}

/** A new code for the caller's attempt: the newest one with the username the page sends, else the newest. */
export async function resendOtp(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'clock'>,
  input: { email: string; username?: string | undefined },
): Promise<{ success: true; message: string }> {
  const attempts = await repo.signupAttempts(deps.db, input.email);
  const wanted = input.username?.trim().toLowerCase();
  const pending = (wanted && attempts.find((a) => a.username.toLowerCase() === wanted)) || attempts[0];
  if (!pending) throw new HttpError(400, m.otpNoPending);
  const now = deps.clock.now();
  assertResendAllowed(attempts, now);
  const code = newOtp();
  await repo.replaceOtp(
    deps.db,
    pending.id,
    sha256(code),
    new Date(now.getTime() + OTP_VALID_MINUTES * MINUTE_MS),
    now,
  );
  await deps.mailer.send(otpMail(pending.email, code));
  return { success: true, message: m.otpResent };
}

/**
 * Whether the caller is the one who started this attempt. The verify page sends the sign-up data again
 * (docs/spec/02-bots-wallet-account.md §7): when it carries a password and username, they must be the attempt's. Several attempts
 * for one e-mail are told apart this way only: the code, not the latest attempt, decides which one.
 */
async function startedBy(attempt: repo.PendingSignupRow, input: VerifyOtpInput, several: boolean) {
  if (input.username && input.username.trim().toLowerCase() !== attempt.username.toLowerCase()) return false;
  if (input.password) return verifyPassword(attempt.passwordHash, input.password);
  // Without the password a code alone decides, which is only safe while it is the e-mail's one attempt.
  return !several;
}

/** Creates the account from the attempt the code was mailed for, once that code is right and live. */
export async function verifyOtp(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'>,
  input: VerifyOtpInput,
  origin: Origin,
): Promise<AuthResponse> {
  const attempts = await repo.signupAttempts(deps.db, input.email);
  if (attempts.length === 0) throw new HttpError(400, m.otpNoPending);
  const nowMs = deps.clock.now().getTime();
  const hash = sha256(input.otp);
  let pending: repo.PendingSignupRow | undefined;
  for (const attempt of attempts)
    if (attempt.otpHash === hash && (await startedBy(attempt, input, attempts.length > 1))) {
      pending = attempt;
      break;
    }
  if (!pending) {
    if (attempts.every((a) => a.failedAttempts >= OTP_MAX_ATTEMPTS)) throw new HttpError(400, m.otpLocked);
    if (attempts.every((a) => a.otpExpiresAt.getTime() <= nowMs)) throw new HttpError(400, m.otpExpired);
    const failures = await repo.countFailedOtp(deps.db, input.email);
    throw new HttpError(400, failures >= OTP_MAX_ATTEMPTS ? m.otpLocked : m.otpInvalid);
  }
  if (pending.failedAttempts >= OTP_MAX_ATTEMPTS) throw new HttpError(400, m.otpLocked);
  if (pending.otpExpiresAt.getTime() <= nowMs) throw new HttpError(400, m.otpExpired);
  const verified = pending;
  const user = await deps.db.transaction(async (tx) => {
    await ensureAvailable({ db: tx }, verified.email, verified.username);
    const created = await insertUserWithCode(tx, verified);
    await repo.deletePendingSignups(tx, verified.email);
    return created;
  });
  return issueSession(deps, user, m.otpVerified, origin);
}

async function insertUserWithCode(tx: Parameters<typeof insertUser>[0], pending: repo.PendingSignupRow) {
  // Referral codes are random; a clash is astronomically rare but must not fail a sign-up.
  for (let attempt = 0; ; attempt += 1) {
    const userCode = newUserCode();
    if (await findUserIdByUserCode(tx, userCode)) {
      if (attempt > 5) throw new Error('could not find a free referral code');
      continue;
    }
    return insertUser(tx, {
      email: pending.email,
      username: pending.username,
      contactNo: pending.contactNo,
      passwordHash: pending.passwordHash,
      referredBy: pending.referredBy,
      userCode,
    });
  }
}

export async function logout(
  deps: Pick<AppDeps, 'db' | 'clock' | 'bus' | 'state'>,
  token: string,
): Promise<void> {
  const hash = sha256(token);
  await revokeSession(deps.db, hash, deps.clock.now());
  revokeCachedSessions(deps.state.sessions, deps.bus, { tokenHash: hash });
}

export async function forgotPassword(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'clock' | 'config'>,
  email: string,
): Promise<{ success: true; message: string }> {
  const user = await findUserByEmail(deps.db, email);
  // docs/spec/02-bots-wallet-account.md §8 wants 404 'User not found' for an unknown e-mail, so we answer it (and rate-limit the lookups).
  if (!user) throw new HttpError(404, m.userNotFound);
  const token = newSecretToken();
  const expiresAt = new Date(deps.clock.now().getTime() + RESET_LINK_VALID_MINUTES * MINUTE_MS);
  await repo.insertPasswordReset(deps.db, user.id, sha256(token), expiresAt);
  await deps.mailer.send(resetMail(user.email, `${deps.config.publicUrl}/resetpassword/${token}`));
  return { success: true, message: m.resetLinkSent };
}

/** Sets a new password through a single-use link and ends every other link and every session of the user. */
export async function resetPassword(
  deps: Pick<AppDeps, 'db' | 'clock' | 'bus' | 'state'>,
  token: string,
  password: string,
  ip: string,
) {
  const passwordHash = await hashPassword(password);
  const now = deps.clock.now();
  const userId = await deps.db.transaction(async (tx) => {
    const userId = await repo.consumePasswordReset(tx, sha256(token), now);
    if (!userId) throw new HttpError(400, m.resetLinkInvalid);
    // An older link in the mailbox must not reset the password again behind the owner's back.
    await endResetLinks(tx, userId, now);
    await updatePasswordHash(tx, userId, passwordHash);
    await revokeAllSessions(tx, userId, now);
    await recordSecurityEvent(tx, { userId, type: 'password_reset', ip });
    return userId;
  });
  revokeCachedSessions(deps.state.sessions, deps.bus, { userId });
  return { success: true as const, message: m.passwordReset };
}
