import {
  cycleApiPaths,
  editCycleInputSchema,
  resumeCycleInputSchema,
  startCycleInputSchema,
  stopCycleInputSchema,
} from '@gridbot/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppDeps } from '../../app/deps';
import { currentUser, requireUser } from '../../plugins/auth';
import * as service from './cycles.service';

/** Start, watch, edit and stop cycles (docs/spec/02-bots-wallet-account.md Start Cycle and §7 Cycles; docs/spec/01-core-screens.md History Cycle tab). */
export async function cycleRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { onRequest: requireUser(deps) };
  const withBody = <T extends z.ZodType>(body: T) => ({ ...guard, schema: { body } });

  r.get(cycleApiPaths.live, guard, async (req) => service.liveCycles(deps, currentUser(req).id));
  r.post(cycleApiPaths.start, withBody(startCycleInputSchema), async (req) =>
    service.startCycle(deps, currentUser(req).id, req.body),
  );
  r.post(cycleApiPaths.edit, withBody(editCycleInputSchema), async (req) =>
    service.editCycle(deps, currentUser(req).id, req.body),
  );
  r.post(cycleApiPaths.stop, withBody(stopCycleInputSchema), async (req) =>
    service.stopCycle(deps, currentUser(req).id, req.body.cycle_id, false),
  );
  // "Stopped and sold" only once the sale is filled and booked; 202 "stop requested" while it is under way.
  r.post(cycleApiPaths.stopWithSell, withBody(stopCycleInputSchema), async (req, reply) => {
    const answer = await service.stopCycle(deps, currentUser(req).id, req.body.cycle_id, true);
    if ('stopping' in answer) reply.code(202);
    return answer;
  });
  // 202 while the re-buy of coins sold outside the platform that the user chose is still being filled.
  r.post(cycleApiPaths.resume, withBody(resumeCycleInputSchema), async (req, reply) => {
    const { cycle_id, missingLots } = req.body;
    const answer = await service.resumeCycle(deps, currentUser(req).id, cycle_id, missingLots);
    if (answer.resuming) reply.code(202);
    return answer;
  });
  r.get(cycleApiPaths.history, guard, async (req) => ({
    rows: await service.cycleHistory(deps, currentUser(req).id),
  }));
}
