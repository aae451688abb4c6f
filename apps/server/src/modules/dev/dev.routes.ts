import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { listOutbox } from '../../mail/mailer';

/** Development helpers; never registered in production (DESIGN §1). */
export async function devRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get('/dev/mailbox', async () => listOutbox(deps.db));
}
