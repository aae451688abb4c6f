import { z } from 'zod';
import { optionalString, requiredString } from '../common/fields';
import { LOGIN_INPUT_MAX, PASSWORD_MIN } from './auth.limits';
import { authMessages as m } from './auth.messages';

export const emailField = requiredString(m.emailRequired)
  .max(LOGIN_INPUT_MAX, m.emailMax)
  .email(m.emailInvalid);

export const passwordField = z
  .string({ error: m.passwordRequired })
  .min(1, m.passwordRequired)
  .min(PASSWORD_MIN, m.passwordMin)
  .max(LOGIN_INPUT_MAX, m.passwordMax);

export const usernameField = requiredString(m.usernameRequired).regex(
  /^[A-Za-z0-9_]{3,20}$/,
  m.usernameInvalid,
);

export const contactNoField = requiredString(m.contactNoRequired).regex(
  /^\+?[0-9]{7,15}$/,
  m.contactNoInvalid,
);

export const otpField = requiredString(m.otpRequired).regex(/^[0-9]{6}$/, m.otpDigits);

/** POST /api/cyborxlogin — `email` holds an e-mail address or a username (docs/spec/01-core-screens.md §3). */
export const loginInputSchema = z.strictObject({
  email: requiredString(m.loginIdRequired).max(LOGIN_INPUT_MAX, m.loginIdMax),
  password: passwordField,
  /** With two-factor sign-in on: the authenticator's code or a recovery code, sent with the password again. */
  code: z.string().trim().max(20).optional(),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

/** POST /api/signup — checks fields and uniqueness, mails a code, creates no account yet. */
export const signupInputSchema = z.strictObject({
  email: emailField,
  username: usernameField,
  contactNo: contactNoField,
  password: passwordField,
  referralId: optionalString(20, m.referralIdMax),
});
export type SignupInput = z.infer<typeof signupInputSchema>;

/** The sign-up form adds a confirmation that never leaves the browser. */
export const signupFormSchema = signupInputSchema
  .extend({ confirmPassword: requiredString(m.confirmPasswordRequired) })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: m.passwordsMustMatch,
  });
export type SignupForm = z.input<typeof signupFormSchema>;

/** POST /api/verify-otp — docs/spec/02-bots-wallet-account.md §7 sends the sign-up data again beside the code. */
export const verifyOtpInputSchema = z.object({
  email: emailField,
  otp: otpField,
  username: z.string().max(LOGIN_INPUT_MAX).optional(),
  contactNo: z.string().max(20).optional(),
  password: z.string().max(LOGIN_INPUT_MAX).optional(),
  referralId: z.string().max(20).nullish(),
});
export type VerifyOtpInput = z.infer<typeof verifyOtpInputSchema>;

/** POST /api/resend-otp. */
export const resendOtpInputSchema = z.object({
  email: emailField,
  username: z.string().max(LOGIN_INPUT_MAX).optional(),
});
export type ResendOtpInput = z.infer<typeof resendOtpInputSchema>;

/** POST /api/forgot-password. */
export const forgotPasswordInputSchema = z.strictObject({ email: emailField });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordInputSchema>;

/** POST /api/reset-password/{token}. */
export const resetPasswordInputSchema = z.strictObject({ password: passwordField });
export type ResetPasswordInput = z.infer<typeof resetPasswordInputSchema>;

export const resetPasswordFormSchema = resetPasswordInputSchema
  .extend({ confirmPassword: requiredString(m.confirmPasswordRequired) })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: m.passwordsMustMatch,
  });
export type ResetPasswordForm = z.input<typeof resetPasswordFormSchema>;

/** Reset tokens are 32 random bytes in base64url (43 characters). */
export const resetTokenParamSchema = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, m.resetLinkInvalid),
});
