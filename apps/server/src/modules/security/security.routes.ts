import {
  adminSecuritySettingsSchema,
  changePasswordInputSchema,
  enableTwoFactorSchema,
  securityApiPaths,
  securityLogQuerySchema,
  sessionIdParamSchema,
  twoFactorConfirmSchema,
} from '@gridbot/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app/deps';
import { currentUser, requireAdmin, requireUser } from '../../plugins/auth';
import { requireAdminTwoFactor, revokeCachedSessions, setRequireAdminTwoFactor } from '../identity';
import { securityLogPage } from './security-log';
import { changePassword, endOtherSessions, endSession, listSessions } from './sessions.service';
import { disable, enable, startSetup, twoFactorStatus } from './two-factor.service';

const tokenOf = (req: FastifyRequest) => req.bearerToken ?? '';

/** The Security page: sessions, security log, password change and two-factor sign-in. */
export async function securityRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { onRequest: requireUser(deps) };
  // The user row changed (2FA on or off): cached sessions must not keep the old one.
  const forgetUser = (userId: string) => revokeCachedSessions(deps.state.sessions, deps.bus, { userId });

  r.get(securityApiPaths.sessions, guard, async (req) => ({
    sessions: await listSessions(deps, currentUser(req).id, tokenOf(req)),
  }));

  r.post(
    securityApiPaths.logoutSession,
    { ...guard, schema: { params: sessionIdParamSchema } },
    async (req) => endSession(deps, currentUser(req).id, req.params.id, req.ip),
  );

  r.post(securityApiPaths.logoutOthers, guard, async (req) =>
    endOtherSessions(deps, currentUser(req).id, tokenOf(req), req.ip),
  );

  r.get(securityApiPaths.log, { ...guard, schema: { querystring: securityLogQuerySchema } }, async (req) =>
    securityLogPage(deps.db, currentUser(req).id, req.query.page),
  );

  r.post(securityApiPaths.password, { ...guard, schema: { body: changePasswordInputSchema } }, async (req) =>
    changePassword(deps, currentUser(req), tokenOf(req), req.body, req.ip),
  );

  r.get(securityApiPaths.twoFactor, guard, async (req) => twoFactorStatus(deps, currentUser(req)));

  r.post(securityApiPaths.twoFactorSetup, guard, async (req) => {
    const setup = await startSetup(deps, currentUser(req));
    forgetUser(currentUser(req).id);
    return setup;
  });

  r.post(
    securityApiPaths.twoFactorEnable,
    { ...guard, schema: { body: enableTwoFactorSchema } },
    async (req) => {
      const result = await enable(deps, currentUser(req), tokenOf(req), req.body.code, req.ip);
      forgetUser(currentUser(req).id);
      return result;
    },
  );

  r.post(
    securityApiPaths.twoFactorDisable,
    { ...guard, schema: { body: twoFactorConfirmSchema } },
    async (req) => {
      const result = await disable(deps, currentUser(req), req.body.code, req.ip);
      forgetUser(currentUser(req).id);
      return result;
    },
  );

  const admin = { onRequest: requireAdmin(deps) };
  r.get(securityApiPaths.adminSettings, admin, async () => ({
    requireAdminTwoFactor: await requireAdminTwoFactor(deps.db),
  }));
  r.put(
    securityApiPaths.adminSettings,
    { ...admin, schema: { body: adminSecuritySettingsSchema } },
    async (req) => {
      await setRequireAdminTwoFactor(deps.db, req.body.requireAdminTwoFactor);
      return { success: true, requireAdminTwoFactor: req.body.requireAdminTwoFactor };
    },
  );
}
