import { contactApiPaths, contactInputSchema, contactMessages } from '@gridbot/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app/deps';
import { contactMail } from '../../mail/templates';
import { authRateRules } from '../../plugins/rate-limit';
import { insertContactMessage } from './contact.repo';

/** The public contact form: stored, then mailed to ADMIN_EMAIL when one is configured. */
export async function contactRoutes(app: FastifyInstance, deps: AppDeps) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(contactApiPaths.send, { schema: { body: contactInputSchema } }, async (req) => {
      await deps.limiter.hit(`contact:ip:${req.ip}`, authRateRules.contactPerIp);
      const message = req.body;
      await insertContactMessage(deps.db, message);
      if (deps.config.adminEmail) await deps.mailer.send(contactMail(deps.config.adminEmail, message));
      return { success: true, message: contactMessages.sent };
    });
}
