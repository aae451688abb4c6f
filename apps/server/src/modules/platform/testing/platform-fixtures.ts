import { authApiPaths } from '@gridbot/shared';
import { call, newSignup } from '../../../testing/http';
import type { TestApp } from '../../../testing/test-app';
import { lastOtp } from '../../../testing/test-app';
import { type Account, applyChanges, ensureWallet } from '../../credit/ledger.repo';

let n = 0;
/**
 * Signs a user up (optionally with a referral ID; `email` overrides the generated one, e.g. ADMIN_EMAIL)
 * and answers token, id and userCode.
 */
export async function signUp(t: TestApp, referralId?: string, email?: string) {
  n += 1;
  const data = { ...newSignup('plat'), ...(referralId ? { referralId } : {}), ...(email ? { email } : {}) };
  const ip = `10.77.${n % 250}.${Math.floor(n / 250) % 250}`;
  const signup = await call(t, 'POST', authApiPaths.signup, data, { ip });
  if (signup.status !== 200) throw new Error(`signup failed: ${JSON.stringify(signup.body)}`);
  const verified = await call(
    t,
    'POST',
    authApiPaths.verifyOtp,
    { ...data, otp: lastOtp(t.mails, data.email) },
    { ip },
  );
  if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body)}`);
  const user = verified.body.user as { id: string; userCode: string };
  return { ...data, token: String(verified.body.token), id: user.id, userCode: user.userCode };
}

/** Credits a wallet directly (as a deposit would), with its ledger row. */
export async function fund(t: TestApp, userId: string, account: Account, amount: string) {
  await ensureWallet(t.deps.db, userId, '100');
  await t.deps.db.transaction((tx) =>
    applyChanges(tx, userId, [{ account, delta: amount }], 'deposit', 'test', t.deps.clock.now()),
  );
}

/** POST to the platform with a token; answers status and envelope. */
export async function platform(t: TestApp, path: string, token: string | undefined, body?: unknown) {
  return call(t, 'POST', `/platform${path}`, body, token ? { token } : {});
}
