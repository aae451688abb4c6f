import {
  copyStrategySchema,
  multigridEditSchema,
  multigridStrategySchema,
  noOfGridSchema,
  scalpingEditSchema,
  scalpingStrategySchema,
  strategyApiPaths,
  strategyByNameSchema,
  strategyKindApiPaths,
} from '@gridbot/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app/deps';
import { currentUser, requireUser } from '../../plugins/auth';
import * as service from './strategies.service';

/** Multigrid and Scalping strategies: create, read, edit, delete, lists, grid count, copy (docs/spec/01-core-screens.md §7). */
export async function strategyRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { onRequest: requireUser(deps) };

  r.post(
    strategyKindApiPaths.multigrid.create,
    { ...guard, schema: { body: multigridStrategySchema } },
    async (req) => service.createStrategy(deps, currentUser(req).id, req.body),
  );
  r.post(
    strategyKindApiPaths.scalping.create,
    { ...guard, schema: { body: scalpingStrategySchema } },
    async (req) => service.createStrategy(deps, currentUser(req).id, req.body),
  );
  r.post(
    strategyKindApiPaths.multigrid.edit,
    { ...guard, schema: { body: multigridEditSchema } },
    async (req) => service.editStrategy(deps, currentUser(req).id, req.body.dataToSend),
  );
  r.post(
    strategyKindApiPaths.scalping.edit,
    { ...guard, schema: { body: scalpingEditSchema } },
    async (req) => service.editStrategy(deps, currentUser(req).id, req.body.dataToSend),
  );

  for (const kind of ['multigrid', 'scalping'] as const) {
    const p = strategyKindApiPaths[kind];
    r.get(p.list, guard, async (req) => service.listStrategies(deps, currentUser(req).id, kind));
    r.get(p.mine, guard, async (req) => service.listStrategies(deps, currentUser(req).id, kind));
    r.get(p.system, guard, async () => service.listStrategies(deps, null, kind));
    r.post(p.byName, { ...guard, schema: { body: strategyByNameSchema } }, async (req) =>
      service.getStrategy(deps, currentUser(req).id, kind, req.body.strategy_name),
    );
    r.post(p.remove, { ...guard, schema: { body: strategyByNameSchema } }, async (req) =>
      service.deleteStrategy(deps, currentUser(req).id, kind, req.body.strategy_name),
    );
  }

  r.post(strategyApiPaths.gridCount, { ...guard, schema: { body: noOfGridSchema } }, async (req) =>
    service.noOfGrid(deps, currentUser(req).id, req.body.strategyName, req.body.kind),
  );

  r.post(strategyApiPaths.copySystem, { ...guard, schema: { body: copyStrategySchema } }, async (req) =>
    service.copySystemStrategy(
      deps,
      currentUser(req).id,
      req.body.kind,
      req.body.strategy_name,
      req.body.newName,
    ),
  );
}
