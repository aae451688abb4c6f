import {
  authApiPaths,
  authMessages,
  forgotPasswordInputSchema,
  loginInputSchema,
  resendOtpInputSchema,
  resetPasswordInputSchema,
  resetTokenParamSchema,
  signupInputSchema,
  verifyOtpInputSchema,
} from '@gridbot/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app/deps';
import { requireUser } from '../../plugins/auth';
import { authRateRules as rules } from '../../plugins/rate-limit';
import * as auth from './auth.service';

const account = (value: string) => value.trim().toLowerCase();
/** The address and browser of a sign-in (the Security page names the device; a new one gets an e-mail). */
const originOf = (req: FastifyRequest) => ({
  ip: req.ip,
  userAgent: req.headers['user-agent']?.slice(0, 500) ?? null,
});

/** Sign-up with an e-mailed code, login, logout, forgot and reset password (docs/spec/01-core-screens.md Login, docs/spec/02-bots-wallet-account.md §5/§7). */
export async function authRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { limiter } = deps;

  r.post(authApiPaths.signup, { schema: { body: signupInputSchema } }, async (req) => {
    await limiter.hit(`signup:ip:${req.ip}`, rules.signupPerIp);
    return auth.signup(deps, req.body);
  });

  r.post(authApiPaths.verifyOtp, { schema: { body: verifyOtpInputSchema } }, async (req) => {
    await limiter.hit(`otp:ip:${req.ip}`, rules.otpPerIp);
    await limiter.hit(`otp:acct:${account(req.body.email)}`, rules.otpPerAccount);
    return auth.verifyOtp(deps, req.body, originOf(req));
  });

  r.post(authApiPaths.resendOtp, { schema: { body: resendOtpInputSchema } }, async (req) => {
    await limiter.hit(`otp:ip:${req.ip}`, rules.otpPerIp);
    return auth.resendOtp(deps, req.body);
  });

  // Limits per IP and per account (across e-mail and username) are in auth.login: it knows the account.
  r.post(authApiPaths.login, { schema: { body: loginInputSchema } }, async (req) =>
    auth.login(deps, req.body, originOf(req)),
  );

  r.post(authApiPaths.logout, { onRequest: requireUser(deps) }, async (req) => {
    await auth.logout(deps, req.bearerToken ?? '');
    return { success: true, message: authMessages.loggedOut };
  });

  r.post(authApiPaths.forgotPassword, { schema: { body: forgotPasswordInputSchema } }, async (req) => {
    await limiter.hit(`reset:ip:${req.ip}`, rules.resetPerIp);
    await limiter.hit(`reset:acct:${account(req.body.email)}`, rules.resetPerAccount);
    return auth.forgotPassword(deps, req.body.email);
  });

  r.post(
    authApiPaths.resetPassword,
    { schema: { params: resetTokenParamSchema, body: resetPasswordInputSchema } },
    async (req) => {
      await limiter.hit(`reset:ip:${req.ip}`, rules.resetPerIp);
      return auth.resetPassword(deps, req.params.token, req.body.password, req.ip);
    },
  );
}
