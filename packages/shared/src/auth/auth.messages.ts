/**
 * Every user-facing text of the account flows. docs/spec/01-core-screens.md §5/§8 and docs/spec/02-bots-wallet-account.md §5/§8 texts are exact;
 * the ones marked (ours) fill gaps the spec leaves open.
 */
export const authMessages = {
  passwordRequired: 'Password is required.',
  passwordMin: 'Password must be at least 6 characters long',
  passwordMax: 'Password must be at most 42 characters long', // (ours)
  confirmPasswordRequired: 'Confirm Password is required.',
  passwordsMustMatch: 'Passwords must match',
  emailRequired: 'Email is required.',
  emailInvalid: 'Email is invalid.',
  emailMax: 'Email must be at most 42 characters long', // (ours)
  loginIdRequired: 'Email Address or Username is required.', // (ours)
  loginIdMax: 'Email Address or Username must be at most 42 characters long', // (ours)
  usernameRequired: 'Username is required.', // (ours)
  usernameInvalid: 'Username must be 3 to 20 letters, digits or underscores.', // (ours)
  contactNoRequired: 'Contact No is required.',
  contactNoInvalid: 'Contact No must be 7 to 15 digits, optionally starting with +.', // (ours)
  referralIdMax: 'Referral ID must be at most 20 characters long', // (ours)
  otpRequired: 'OTP is required.',
  otpDigits: 'OTP must be exactly 6 digits.',

  loginFailed: 'Login failed. Please try again.',
  invalidCredentials: 'Invalid email/username or password.', // (ours)
  emailTaken: 'An account with this email already exists.', // (ours)
  usernameTaken: 'This username is already taken.', // (ours)
  referralUnknown: 'Referral ID not found.', // (ours)
  otpSent: 'A verification code has been sent to your email.', // (ours)
  otpInvalid: 'Invalid OTP. Please try again.',
  otpExpired: 'This code has expired. Please request a new one.', // (ours)
  otpLocked: 'Too many wrong codes. Please request a new one.', // (ours)
  otpNoPending: 'No sign-up is waiting for this email. Please sign up again.', // (ours)
  otpVerifyFailed: 'Failed to verify OTP. Please try again.',
  otpVerified: 'OTP verified successfully.',
  otpResent: 'OTP resent successfully.',
  otpResendFailed: 'Failed to resend OTP. Please try again.',
  otpResendWait: (seconds: number) => `Please wait ${seconds} seconds before requesting a new code.`, // (ours)
  userNotFound: 'User not found',
  userNotFoundHint: 'User not found. Please check your email and try again.',
  resetLinkSent: 'Password reset link sent to your email.',
  resetLinkFailed: 'Failed to send reset link. Please try again.',
  resetLinkInvalid: 'This reset link is invalid or has expired.', // (ours)
  passwordReset: 'Password Reset successfully.',
  passwordResetFailed: 'Failed to reset password. Please try again.',
  tooManyAttempts: (seconds: number) => `Too many attempts. Please try again in ${seconds} seconds.`, // (ours)
  sessionExpired: 'Your session has expired. Please log in again.', // (ours)
  loggedOut: 'Logged out.', // (ours)
} as const;
