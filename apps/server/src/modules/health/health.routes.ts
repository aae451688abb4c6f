import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';

export async function healthRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get('/healthz', async (_req, reply) => {
    try {
      await deps.db.execute(sql`select 1`);
      return { status: 'ok' };
    } catch (error) {
      app.log.warn({ err: error }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
}
