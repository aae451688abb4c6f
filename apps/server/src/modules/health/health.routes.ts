import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps, Operations } from '../../app/deps';
import { isLoopbackRequest } from '../../plugins/loopback';
import { pingDatabase } from './health.repo';

/** /metrics with METRICS_TOKEN: its bearer token; without: callers on this machine (a local scraper) only. */
function metricsAllowed(request: FastifyRequest, token: string | undefined): boolean {
  if (!token) return isLoopbackRequest(request);
  const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function refuseMetrics(reply: FastifyReply, token: string | undefined) {
  // Without a token there is nothing a remote caller could do to get in: the route does not exist for it.
  return token
    ? reply.status(401).header('www-authenticate', 'Bearer').send({ message: 'A metrics token is required.' })
    : reply.status(404).send({ message: 'Not found' });
}

/**
 * Liveness, readiness and metrics of every role. /healthz: the process answers and reaches its
 * database. /readyz: also every part the role needs (bus, market prices, held leases) is ready, so a load
 * balancer sends traffic only there. /metrics: Prometheus text, behind METRICS_TOKEN (or loopback only).
 */
export async function healthRoutes(
  app: FastifyInstance,
  deps: Partial<Pick<AppDeps, 'db'>> & { ops?: Operations },
) {
  const database = async () => {
    if (!deps.db) return true; // ROLE=market uses no database
    try {
      await pingDatabase(deps.db);
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

  app.get('/readyz', async (req, reply) => {
    const checks = { database: await database(), ...(deps.ops?.readiness() ?? {}) };
    const ready = Object.values(checks).every(Boolean);
    // A load balancer needs the status only; which part is down is for the operator (loopback or token).
    const detail = metricsAllowed(req, deps.ops?.metricsToken) ? { checks } : {};
    return reply
      .status(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'not ready', role: deps.ops?.role ?? 'all', ...detail });
  });

  const registry = deps.ops?.metrics;
  if (registry) {
    const token = deps.ops?.metricsToken;
    app.get('/metrics', async (req, reply) => {
      if (!metricsAllowed(req, token)) return refuseMetrics(reply, token);
      reply.type(registry.contentType);
      return registry.metrics();
    });
  }
}
