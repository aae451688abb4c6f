/**
 * The paths of sign-up, sign-in, the account and the Security screen, written once for the server's routes
 * and the web's calls (docs/spec/01-core-screens.md §7; docs/architecture.md §4). Patterns with `:name` are
 * filled in with `pathWith`.
 */
export const authApiPaths = {
  signup: '/api/signup',
  verifyOtp: '/api/verify-otp',
  resendOtp: '/api/resend-otp',
  login: '/api/cyborxlogin',
  logout: '/api/logout',
  forgotPassword: '/api/forgot-password',
  resetPassword: '/api/reset-password/:token',
} as const;

/** The signed-in user's account. */
export const accountApiPaths = {
  me: '/api/me',
  email: '/api/email',
  disclaimerCheck: '/api/disclaimeragreementcheck',
  disclaimer: '/api/disclaimer',
} as const;

/** The Security screen: sessions, the security log, password and two-factor authentication. */
export const securityApiPaths = {
  sessions: '/api/security/sessions',
  logoutSession: '/api/security/sessions/:id/logout',
  logoutOthers: '/api/security/sessions/logout-others',
  log: '/api/security/log',
  password: '/api/security/password',
  twoFactor: '/api/security/2fa',
  twoFactorSetup: '/api/security/2fa/setup',
  twoFactorEnable: '/api/security/2fa/enable',
  twoFactorDisable: '/api/security/2fa/disable',
  /** Admins only: whether every admin must use two-factor authentication (GET and PUT). */
  adminSettings: '/api/admin/security',
} as const;
