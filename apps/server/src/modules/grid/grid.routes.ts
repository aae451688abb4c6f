import {
  botIdInputSchema,
  type GridBotInfo,
  gridApiPaths,
  gridEditInputSchema,
  gridStopInputSchema,
  startGridInputSchema,
} from '@gridbot/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppDeps } from '../../app/deps';
import { currentUser, requireUser } from '../../plugins/auth';
import { history } from '../bots';
import { userVenueName } from '../exchange';
import * as service from './grid.service';

/** Start, watch, edit and stop range grids (docs/trading-rules.md §2.6; the contract in packages/shared grid-bot.ts). */
export async function gridRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { onRequest: requireUser(deps) };
  const withBody = <T extends z.ZodType>(body: T) => ({ ...guard, schema: { body } });

  r.post(gridApiPaths.start, withBody(startGridInputSchema), async (req) =>
    service.startGrid(deps, currentUser(req).id, req.body),
  );
  r.get(gridApiPaths.list, guard, async (req) => service.listGrids(deps, currentUser(req).id));
  r.get(gridApiPaths.history, guard, async (req) => ({
    rows: await history(deps, currentUser(req).id, 'range'),
  }));
  // The running grid's page: the grid and, as on the bot pages, the exchange it trades on (GridBotInfo).
  r.post(gridApiPaths.info, withBody(botIdInputSchema), async (req): Promise<GridBotInfo> => {
    const userId = currentUser(req).id;
    const view = await service.gridInfo(deps, userId, req.body.botID);
    return { ...view, exchange: await userVenueName(deps, userId) };
  });
  r.post(gridApiPaths.fills, withBody(botIdInputSchema), async (req) =>
    service.gridFillsOf(deps, currentUser(req).id, req.body.botID),
  );
  r.post(gridApiPaths.edit, withBody(gridEditInputSchema), async (req) =>
    service.editGrid(deps, currentUser(req).id, req.body),
  );
  // 202 while a stop with sell's sale is under way (the grid shows Stopping).
  r.post(gridApiPaths.stop, withBody(gridStopInputSchema), async (req, reply) => {
    const answer = await service.stopGrid(deps, currentUser(req).id, req.body.botID, req.body.sell);
    if ('stopping' in answer) reply.code(202);
    return answer;
  });
}
