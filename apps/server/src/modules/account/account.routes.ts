import { accountApiPaths, disclaimerInputSchema } from '@gridbot/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app/deps';
import { currentUser, requireUser } from '../../plugins/auth';
import { sessionUserOf } from '../auth';
import { revokeCachedSessions } from '../identity';
import { recordDisclaimerAgreement } from './account.repo';

/** The signed-in user's own data: profile for the header, disclaimer agreement (docs/spec/01-core-screens.md §7). */
export async function accountRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { onRequest: requireUser(deps) };

  r.get(accountApiPaths.me, guard, async (req) => ({ user: await sessionUserOf(deps, currentUser(req)) }));

  r.get(accountApiPaths.email, guard, async (req) => {
    const user = currentUser(req);
    return { email: user.email, username: user.username };
  });

  r.get(accountApiPaths.disclaimerCheck, guard, async (req) => ({
    agreed: currentUser(req).disclaimerAgreedAt !== null,
  }));

  r.post(accountApiPaths.disclaimer, { ...guard, schema: { body: disclaimerInputSchema } }, async (req) => {
    await recordDisclaimerAgreement(deps.db, currentUser(req).id, deps.clock.now());
    // The cached user row carries the agreement: every process must read it again.
    revokeCachedSessions(deps.state.sessions, deps.bus, { userId: currentUser(req).id });
    return { success: true, agreed: true };
  });
}
