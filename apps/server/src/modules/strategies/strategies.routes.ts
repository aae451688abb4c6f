import {
  copyStrategySchema,
  multigridEditSchema,
  multigridStrategySchema,
  noOfGridSchema,
  type StrategyKind,
  scalpingEditSchema,
  scalpingStrategySchema,
  strategyByNameSchema,
} from '@gridbot/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps';
import { currentUser, requireUser } from '../../plugins/auth';
import * as service from './strategies.service';

/** The spec's path pairs (docs/spec/01-core-screens.md §7): Multigrid first, Scalping second. */
const paths: Record<
  StrategyKind,
  { create: string; list: string; byName: string; edit: string; del: string }
> = {
  multigrid: {
    create: '/api/strategy',
    list: '/api/mystratagieslist',
    byName: '/api/stratagybypara',
    edit: '/api/stratagyedit',
    del: '/api/deletestrategy',
  },
  scalping: {
    create: '/api/strategyscalp',
    list: '/api/scalpmystratagieslist',
    byName: '/api/scalpstratagybypara',
    edit: '/api/scalpstratagyedit',
    del: '/api/scalpdeletestrategy',
  },
};

/** Name lists for Start Bot and the header: own (`mine`) and system strategies per kind. */
const namePaths: Record<StrategyKind, { mine: string; system: string }> = {
  multigrid: { mine: '/api/mystratagies', system: '/api/systemstrategy' },
  scalping: { mine: '/api/mystratagiesscalping', system: '/api/systemstrategyscalping' },
};

/** Multigrid and Scalping strategies: create, read, edit, delete, lists, grid count, copy (docs/spec/01-core-screens.md §7). */
export async function strategyRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { onRequest: requireUser(deps) };

  r.post(paths.multigrid.create, { ...guard, schema: { body: multigridStrategySchema } }, async (req) =>
    service.createStrategy(deps, currentUser(req).id, req.body),
  );
  r.post(paths.scalping.create, { ...guard, schema: { body: scalpingStrategySchema } }, async (req) =>
    service.createStrategy(deps, currentUser(req).id, req.body),
  );
  r.post(paths.multigrid.edit, { ...guard, schema: { body: multigridEditSchema } }, async (req) =>
    service.editStrategy(deps, currentUser(req).id, req.body.dataToSend),
  );
  r.post(paths.scalping.edit, { ...guard, schema: { body: scalpingEditSchema } }, async (req) =>
    service.editStrategy(deps, currentUser(req).id, req.body.dataToSend),
  );

  for (const kind of ['multigrid', 'scalping'] as const) {
    const p = paths[kind];
    r.get(p.list, guard, async (req) => service.listStrategies(deps, currentUser(req).id, kind));
    r.get(namePaths[kind].mine, guard, async (req) =>
      service.listStrategies(deps, currentUser(req).id, kind),
    );
    r.get(namePaths[kind].system, guard, async () => service.listStrategies(deps, null, kind));
    r.post(p.byName, { ...guard, schema: { body: strategyByNameSchema } }, async (req) =>
      service.getStrategy(deps, currentUser(req).id, kind, req.body.strategy_name),
    );
    r.post(p.del, { ...guard, schema: { body: strategyByNameSchema } }, async (req) =>
      service.deleteStrategy(deps, currentUser(req).id, kind, req.body.strategy_name),
    );
  }

  r.post('/api/noofgrid', { ...guard, schema: { body: noOfGridSchema } }, async (req) =>
    service.noOfGrid(deps, currentUser(req).id, req.body.strategyName, req.body.kind),
  );

  r.post('/api/copystrategy', { ...guard, schema: { body: copyStrategySchema } }, async (req) =>
    service.copySystemStrategy(
      deps,
      currentUser(req).id,
      req.body.kind,
      req.body.strategy_name,
      req.body.newName,
    ),
  );
}
