// Plain numbers, apart from the zod schemas that use them: a screen that only shows a limit (a field's
// maxLength, a resend countdown) does not have to load zod for it.

/** docs/spec/01-core-screens.md §9: login id and password inputs are limited to 42 characters. */
export const LOGIN_INPUT_MAX = 42;
export const PASSWORD_MIN = 6;
/** docs/spec/02-bots-wallet-account.md §9: six-digit codes, 30 s between sends. Validity and attempts are ours (the spec leaves them open). */
export const OTP_LENGTH = 6;
export const OTP_RESEND_WAIT_SECONDS = 30;
export const OTP_VALID_MINUTES = 10;
export const OTP_MAX_ATTEMPTS = 5;
export const RESET_LINK_VALID_MINUTES = 30;
