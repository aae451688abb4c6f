import type { PlatformWalletFields } from '../platform/platform.types';

/**
 * The signed-in user as the API returns it and the web app keeps it (docs/spec/01-core-screens.md §3, docs/spec/02-bots-wallet-account.md §3).
 * The platform wallet fields are present when subscriptions are enabled on the server.
 */
export interface SessionUser extends Partial<Omit<PlatformWalletFields, 'userCode' | 'usdtRewardToken'>> {
  id: string;
  email: string;
  username: string;
  contactNo: string;
  /** The user's own referral ID, shared as `/signup?ref=CODE`. */
  userCode: string;
  role: 'user' | 'admin';
  /** Reward balance in USDT, a decimal string (platform wallet, filled in by the subscription issue). */
  usdtRewardToken: string;
}

/** Answer of POST /api/cyborxlogin and POST /api/verify-otp. `token` and `accessToken` are the same bearer token. */
export interface AuthResponse {
  success: true;
  message: string;
  token: string;
  accessToken: string;
  user: SessionUser;
}

/** Main API error body (docs/architecture.md §4). */
export interface ApiErrorBody {
  message: string;
  errors?: { path: string; message: string }[];
}
