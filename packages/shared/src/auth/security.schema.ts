import { z } from 'zod';
import { LOGIN_INPUT_MAX } from './auth.limits';
import { authMessages } from './auth.messages';
import { passwordField } from './auth.schema';

/** Texts of the Security page, two-factor sign-in and key permissions (ours: the spec has no such screen). */
export const securityMessages = {
  codeRequired: 'Enter the 6-digit code from your authenticator app.',
  codeInvalid: 'The code is wrong or was already used. Please try again.',
  codeFormat: 'Enter the 6-digit code or one of your recovery codes.',
  twoFactorEnabled: 'Two-factor sign-in is on. Keep your recovery codes somewhere safe.',
  twoFactorDisabled: 'Two-factor sign-in is off.',
  twoFactorAlreadyOn: 'Two-factor sign-in is already on.',
  twoFactorNotOn: 'Two-factor sign-in is not on.',
  twoFactorSetupMissing: 'Start the setup again: no secret is waiting for a first code.',
  adminTwoFactorRequired: 'Administrators must turn on two-factor sign-in (Security page) first.',
  currentPasswordWrong: 'The current password is wrong.',
  currentPasswordRequired: 'Current password is required.',
  newPasswordSame: 'The new password must differ from the current one.',
  passwordChanged: 'Password changed. Your other sessions were logged out.',
  sessionEnded: 'The session was logged out.',
  otherSessionsEnded: 'Every other session was logged out.',
  sessionNotFound: 'Session not found',
  withdrawalsEnabled: 'Withdrawals must be disabled on this API key.',
  spotTradingMissing: 'Enable Spot & Margin Trading on this API key.',
  futuresMissing: 'Enable Futures on this API key: you have futures bots.',
  noIpRestriction: (ip: string) =>
    `This API key is not restricted to trusted IPs. Restrict it to this server's IP ${ip} in your Binance API Management.`,
  keyLostRights: (reason: string) => `The API key lost a permission it needs: ${reason}`,
} as const;

/** A TOTP code (6 digits) or a recovery code (XXXXX-XXXXX, case and dash optional). */
export const twoFactorCodeField = z
  .string({ error: securityMessages.codeRequired })
  .trim()
  .min(1, securityMessages.codeRequired)
  .max(20, securityMessages.codeFormat)
  .regex(/^(\d{6}|[A-Za-z0-9]{5}-?[A-Za-z0-9]{5})$/, securityMessages.codeFormat);

/** Body of the actions that ask for the code again (turn 2FA off, keys, withdrawals). */
export const twoFactorConfirmSchema = z.strictObject({ code: twoFactorCodeField });

/** POST /api/security/2fa/enable: the first code from the app confirms the secret shown. */
export const enableTwoFactorSchema = z.strictObject({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, securityMessages.codeRequired),
});

/** POST /api/security/password: the current password, and a new one under the sign-up rules. */
export const changePasswordInputSchema = z
  .strictObject({
    currentPassword: z
      .string({ error: securityMessages.currentPasswordRequired })
      .min(1, securityMessages.currentPasswordRequired)
      .max(LOGIN_INPUT_MAX, authMessages.passwordMax),
    newPassword: passwordField,
  })
  .refine((v) => v.currentPassword !== v.newPassword, {
    path: ['newPassword'],
    message: securityMessages.newPasswordSame,
  });
export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>;

/** The change-password form adds a confirmation that never leaves the browser. */
export const changePasswordFormSchema = changePasswordInputSchema.safeExtend({
  confirmPassword: z.string().min(1, authMessages.confirmPasswordRequired),
});

export const sessionIdParamSchema = z.strictObject({ id: z.uuid(securityMessages.sessionNotFound) });

export const securityLogQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

/** PUT /api/admin/security */
export const adminSecuritySettingsSchema = z.strictObject({ requireAdminTwoFactor: z.boolean() });

/** One of the user's live sessions (GET /api/security/sessions). */
export interface SessionInfo {
  id: string;
  /** "Chrome 131 on macOS", from the User-Agent. */
  device: string;
  ip: string | null;
  createdAt: string;
  lastSeenAt: string;
  /** The session making this request. */
  current: boolean;
}

/** Kinds of security-log entries. */
export const securityEventTypes = [
  'login_success',
  'login_new_device',
  'login_failed',
  'password_reset',
  'password_changed',
  'two_factor_on',
  'two_factor_off',
  'recovery_code_used',
  'key_saved',
  'key_removed',
  'withdrawal_requested',
  'session_ended',
] as const;
export type SecurityEventType = (typeof securityEventTypes)[number];

export const securityEventLabels: Record<SecurityEventType, string> = {
  login_success: 'Logged in',
  login_new_device: 'Logged in from a new device',
  login_failed: 'Failed login',
  password_reset: 'Password reset by e-mail link',
  password_changed: 'Password changed',
  two_factor_on: 'Two-factor sign-in turned on',
  two_factor_off: 'Two-factor sign-in turned off',
  recovery_code_used: 'Recovery code used',
  key_saved: 'API key saved',
  key_removed: 'API key removed',
  withdrawal_requested: 'Withdrawal requested',
  session_ended: 'Session logged out',
};

export interface SecurityLogEntry {
  id: string;
  type: SecurityEventType;
  label: string;
  ip: string | null;
  /** A short, secret-free detail: the device, the key's first characters, the amount. */
  detail: string | null;
  createdAt: string;
}

export interface SecurityLogPage {
  items: SecurityLogEntry[];
  page: number;
  pageSize: number;
  total: number;
}

/** GET /api/security/2fa */
export interface TwoFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
  /** Set when the platform requires it of this user (an administrator). */
  required: boolean;
}

/** POST /api/security/2fa/setup: shown once, before the first code confirms it. */
export interface TwoFactorSetup {
  secret: string;
  otpauthUrl: string;
}

/** What a Binance key may do (GET /sapi/v1/account/apiRestrictions), as API Setting shows it. */
export interface KeyPermissions {
  ipRestricted: boolean;
  enableReading: boolean;
  enableSpotAndMarginTrading: boolean;
  enableFutures: boolean;
  enableWithdrawals: boolean;
  checkedAt: string;
}
