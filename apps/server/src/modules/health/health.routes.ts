import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppDeps, Operations } from '../../deps';

/**
 * Liveness, readiness and metrics of every role. /healthz: the process answers and reaches its
 * database. /readyz: also every part the role needs (bus, market prices, held leases) is ready, so a load
 * balancer sends traffic only there. /metrics: Prometheus text.
 */
export async function healthRoutes(
  app: FastifyInstance,
  deps: Partial<Pick<AppDeps, 'db'>> & { ops?: Operations },
) {
  const database = async () => {
    if (!deps.db) return true; // ROLE=market uses no database
    try {
      await deps.db.execute(sql`select 1`);
      return true;
    } catch (error) {
      app.log.warn({ err: error }, 'health check: database unreachable');
      return false;
    }
  };

  app.get('/healthz', async (_req, reply) => {
    if (await database()) return { status: 'ok', role: deps.ops?.role ?? 'all' };
    return reply.status(503).send({ status: 'unavailable' });
  });

  app.get('/readyz', async (_req, reply) => {
    const checks = { database: await database(), ...(deps.ops?.readiness() ?? {}) };
    const ready = Object.values(checks).every(Boolean);
    return reply
      .status(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'not ready', role: deps.ops?.role ?? 'all', checks });
  });

  const registry = deps.ops?.metrics;
  if (registry) {
    app.get('/metrics', async (_req, reply) => {
      reply.type(registry.contentType);
      return registry.metrics();
    });
  }
}
