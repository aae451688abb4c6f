import {
  adminApiPaths,
  adminApproveWithdrawalInputSchema,
  adminLevelsInputSchema,
  adminPlanInputSchema,
  adminRejectWithdrawalInputSchema,
  platformMessages as m,
} from '@gridbot/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app/deps';
import { notFound } from '../../lib/http-error';
import { currentUser, requireAdmin } from '../../plugins/auth';
import { levelRewards, offsetOf, toPage } from '../platform';
import { adminActionsPage } from './admin.repo';
import {
  ADMIN_PAGE_SIZE,
  approveWithdrawal,
  listAllPlans,
  listContactMessages,
  listUsers,
  listWithdrawalsForAdmin,
  rejectWithdrawal,
  saveLevels,
  savePlan,
} from './admin.service';

const pageQuery = z.object({ page: z.coerce.number().int().min(1).default(1) });
const idParams = z.object({ id: z.string() });

/**
 * Administration (beyond the spec), main API conventions: plain JSON, errors `{ message }`.
 * Every route needs a session of the administrator (role 'admin' or ADMIN_EMAIL); anyone else gets 404.
 * The platform parts (withdrawals, plans, levels) are 404 too when SUBSCRIPTION_ENABLED is off.
 *
 *   GET  /api/admin/withdrawals?status=PENDING|SENT|REJECTED&page=   paged, newest first
 *   POST /api/admin/withdrawals/:id/approve {txHash?}   → SENT (hot wallet pays when no hash is given)
 *   POST /api/admin/withdrawals/:id/reject {reason?}    → REJECTED, amount refunded
 *   GET  /api/admin/plans · POST /api/admin/plans · PUT /api/admin/plans/:id
 *   GET  /api/admin/levels · PUT /api/admin/levels {rewards: [{level, rewardPercentage}]}
 *   GET  /api/admin/users?page= · GET /api/admin/contact-messages?page= · GET /api/admin/actions?page=
 * Every write is logged in admin_actions (who, when, what) in its own transaction.
 */
export async function adminRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { onRequest: requireAdmin(deps) };
  const platformGuard = {
    onRequest: async (...args: Parameters<ReturnType<typeof requireAdmin>>) => {
      await guard.onRequest(...args);
      if (!deps.config.subscriptionEnabled) throw notFound();
    },
  };

  r.get(
    adminApiPaths.withdrawals,
    {
      ...platformGuard,
      schema: {
        querystring: pageQuery.extend({ status: z.enum(['PENDING', 'SENT', 'REJECTED']).optional() }),
      },
    },
    async (req) => listWithdrawalsForAdmin(deps, req.query.status, req.query.page),
  );
  r.post(
    adminApiPaths.approveWithdrawal,
    {
      ...platformGuard,
      schema: { params: idParams, body: adminApproveWithdrawalInputSchema.optional().default({}) },
    },
    async (req) => ({
      message: m.withdrawalApproved,
      withdrawal: await approveWithdrawal(deps, currentUser(req), req.params.id, req.body.txHash),
    }),
  );
  r.post(
    adminApiPaths.rejectWithdrawal,
    {
      ...platformGuard,
      schema: { params: idParams, body: adminRejectWithdrawalInputSchema.optional().default({}) },
    },
    async (req) => ({
      message: m.withdrawalRejected,
      withdrawal: await rejectWithdrawal(deps, currentUser(req), req.params.id, req.body.reason),
    }),
  );

  r.get(adminApiPaths.plans, platformGuard, async () => ({ plans: await listAllPlans(deps) }));
  r.post(adminApiPaths.plans, { ...platformGuard, schema: { body: adminPlanInputSchema } }, async (req) => ({
    message: m.planSaved,
    plan: await savePlan(deps, currentUser(req), null, req.body),
  }));
  r.put(
    adminApiPaths.plan,
    { ...platformGuard, schema: { params: idParams, body: adminPlanInputSchema } },
    async (req) => ({
      message: m.planSaved,
      plan: await savePlan(deps, currentUser(req), req.params.id, req.body),
    }),
  );

  r.get(adminApiPaths.levels, platformGuard, async () => ({ rewards: await levelRewards(deps) }));
  r.put(adminApiPaths.levels, { ...platformGuard, schema: { body: adminLevelsInputSchema } }, async (req) => {
    await saveLevels(deps, currentUser(req), req.body);
    return { message: m.levelsSaved, rewards: await levelRewards(deps) };
  });

  r.get(adminApiPaths.users, { ...guard, schema: { querystring: pageQuery } }, async (req) =>
    listUsers(deps, req.query.page),
  );
  r.get(adminApiPaths.contactMessages, { ...guard, schema: { querystring: pageQuery } }, async (req) =>
    listContactMessages(deps, req.query.page),
  );
  r.get(adminApiPaths.actions, { ...guard, schema: { querystring: pageQuery } }, async (req) => {
    const offset = offsetOf(req.query.page, ADMIN_PAGE_SIZE);
    const { rows, total } = await adminActionsPage(deps.db, offset, ADMIN_PAGE_SIZE);
    const records = rows.map((a) => ({ ...a, createdAt: a.createdAt.toISOString() }));
    return toPage(records, total, req.query.page, ADMIN_PAGE_SIZE);
  });
}
