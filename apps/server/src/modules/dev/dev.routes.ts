import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app/deps';
import { listOutbox } from '../../mail/mailer';
import { loopbackOnly } from '../../plugins/loopback';

/**
 * Development helpers: registered only with DEV_MAILBOX=true outside production, and answered only to
 * callers on this machine. The outbox holds sign-up codes and reset links: anyone who reads it can take
 * over any account.
 */
export async function devRoutes(app: FastifyInstance, deps: AppDeps) {
  app.addHook('onRequest', loopbackOnly);
  app.get('/dev/mailbox', async () => listOutbox(deps.db));
}
