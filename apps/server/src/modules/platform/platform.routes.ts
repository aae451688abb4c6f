import {
  type DepositOptions,
  platformMessages as m,
  platformApiPaths,
  platformListInputSchema,
  simulatedDepositInputSchema,
  subscriptionCreateInputSchema,
  swapRewardInputSchema,
  withdrawCreateInputSchema,
} from '@gridbot/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app/deps';
import { platformDepsOf } from '../../config/platform-runtime';
import { HttpError } from '../../lib/http-error';
import { currentUser, requireUser } from '../../plugins/auth';
import { allowNewCycles } from '../bots';
import { requireSecondFactor } from '../security';
import {
  creditSimulatedDeposit,
  listDeposits,
  openListeningWindow,
  simulatedDepositsAllowed,
  syncDeposits,
} from './deposits.service';
import { ok, registerPlatformErrorHandler } from './envelope';
import { levelRewards, rewardHistory } from './referral.service';
import { listPlans, listSubscriptions, subscribe } from './subscriptions.service';
import { createWithdrawal, listWithdrawals, swapRewardToUsdt } from './withdrawals.service';

/**
 * The platform service (docs/spec/01-core-screens.md §7, docs/spec/02-bots-wallet-account.md §7): every call is POST under /platform, answers
 * `{code: '0000', data, msg}` (failures: another code with `msg` and `error`, HTTP 4xx/5xx), needs the
 * bearer token, and exists only when SUBSCRIPTION_ENABLED is true (registered from app.ts; 404 otherwise).
 * With CHAIN_RPC_URL the role runs the deposit watcher (`deps.chain`; safe with several processes: the
 * cursor row lock and the unique (txHash, logIndex) keep every credit single).
 */
export async function platformRoutes(app: FastifyInstance, deps: AppDeps) {
  const pdeps = platformDepsOf(deps);
  registerPlatformErrorHandler(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { onRequest: requireUser(deps) };
  const list = { ...guard, schema: { body: z.preprocess((v) => v ?? {}, platformListInputSchema) } };

  r.post(platformApiPaths.plans, guard, async () => ok({ plans: await listPlans(pdeps) }));
  r.post(platformApiPaths.subscriptions, list, async (req) =>
    ok(await listSubscriptions(pdeps, currentUser(req).id, req.body)),
  );
  r.post(
    platformApiPaths.subscribe,
    { ...guard, schema: { body: subscriptionCreateInputSchema } },
    async (req) => {
      const sub = await subscribe(pdeps, currentUser(req).id, req.body.planId);
      // Credit is back: running bots may open new grid-1 cycles again (docs/product.md §5).
      await allowNewCycles(deps, currentUser(req).id);
      return ok({ id: sub.id, planId: sub.planId }, m.subscribed);
    },
  );

  r.post(platformApiPaths.deposits, list, async (req) =>
    ok(await listDeposits(pdeps, currentUser(req).id, req.body)),
  );
  r.post(platformApiPaths.depositListen, guard, async (req) => {
    return ok(await openListeningWindow(pdeps, deps.chain, currentUser(req).id), m.listening);
  });
  const simulated = () =>
    simulatedDepositsAllowed({
      venue: deps.exchanges.venue,
      production: deps.config.production,
      chain: deps.chain,
      configured: pdeps.platform.chain !== undefined,
    });
  r.post(platformApiPaths.depositOptions, guard, async () =>
    ok({ chain: deps.chain !== undefined, simulated: simulated() } satisfies DepositOptions),
  );
  r.post(
    platformApiPaths.depositSimulate,
    { ...guard, schema: { body: simulatedDepositInputSchema } },
    async (req) => {
      if (!simulated()) throw new HttpError(403, m.simulatedDepositOff);
      const record = await creditSimulatedDeposit(
        pdeps,
        currentUser(req).id,
        req.body.token,
        req.body.amount,
      );
      return ok(record, m.simulatedDepositCredited(record.amount, record.token));
    },
  );
  r.post(platformApiPaths.depositSync, guard, async (req) => {
    const msg = await syncDeposits(pdeps, deps.chain, currentUser(req).id);
    return ok(null, msg);
  });

  r.post(platformApiPaths.withdrawals, list, async (req) =>
    ok(await listWithdrawals(pdeps, currentUser(req).id, req.body)),
  );
  r.post(
    platformApiPaths.withdraw,
    { ...guard, schema: { body: withdrawCreateInputSchema } },
    async (req) => {
      await requireSecondFactor(deps, currentUser(req), req.body.code, req.ip);
      const record = await createWithdrawal(
        pdeps,
        currentUser(req).id,
        req.body.amount,
        req.body.toAddress,
        req.ip,
      );
      return ok(record, m.withdrawRequested);
    },
  );
  r.post(platformApiPaths.swapReward, { ...guard, schema: { body: swapRewardInputSchema } }, async (req) => {
    await swapRewardToUsdt(pdeps, currentUser(req).id, req.body.amount);
    return ok(null, m.swapDone);
  });

  r.post(platformApiPaths.levelRewards, guard, async () => ok({ rewards: await levelRewards(pdeps) }));
  r.post(platformApiPaths.rewardHistory, list, async (req) =>
    ok(await rewardHistory(pdeps, currentUser(req).id, req.body)),
  );
}
