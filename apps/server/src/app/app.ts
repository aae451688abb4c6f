import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { accountRoutes } from '../modules/account';
import { adminRoutes } from '../modules/admin';
import { authRoutes } from '../modules/auth';
import { botRoutes } from '../modules/bots';
import { contactRoutes } from '../modules/contact';
import { cycleRoutes } from '../modules/cycles';
import { devRoutes } from '../modules/dev';
import { gridRoutes } from '../modules/grid';
import { healthRoutes } from '../modules/health';
import { marketRoutes } from '../modules/market';
import { notificationRoutes } from '../modules/notifications';
import { platformRoutes } from '../modules/platform';
import { pushRoutes } from '../modules/push';
import { securityRoutes } from '../modules/security';
import { strategyRoutes } from '../modules/strategies';
import { walletRoutes } from '../modules/wallet';
import { registerErrorHandler } from '../plugins/error-handler';
import { registerRequestGuards } from '../plugins/request-guards';
import { registerSecurityHeaders } from '../plugins/security-headers';
import { registerCompression, registerWebApp } from '../plugins/web-delivery';
import type { AppDeps } from './deps';

export interface BuildAppOptions {
  logger?: FastifyServerOptions['logger'];
  /** The built web app to serve (apps/web/dist); skipped when absent. */
  webDistDir?: string;
  /** Filled with every route the app answers: the route-wide checks (auth first, fuzzing) walk it. */
  routes?: AppRoute[];
}

export interface AppRoute {
  method: string;
  url: string;
}

/** Registers plugins and modules; never listens (docs/contributing.md §1). Tests drive it with app.inject(). */
export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}) {
  const app = Fastify({
    logger: withRedactedUrls(options.logger ?? false),
    bodyLimit: 256 * 1024,
    // X-Forwarded-For decides request.ip (rate limits): believed only from the proxies TRUST_PROXY names.
    // A hop count is a number; Fastify honours it (lib/request.js) though its types omit it.
    trustProxy: (deps.config.trustProxy ?? false) as boolean | string[],
    ajv: { customOptions: { removeAdditional: false } },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const { routes } = options;
  if (routes)
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });
  app.decorateRequest('user', null);
  app.decorateRequest('bearerToken', null);
  registerErrorHandler(app);
  await registerSecurityHeaders(app, deps.config.publicUrl);
  registerRequestGuards(app);
  await registerCompression(app);

  await app.register(async (scope) => healthRoutes(scope, deps));
  await app.register(async (scope) => authRoutes(scope, deps));
  await app.register(async (scope) => accountRoutes(scope, deps));
  await app.register(async (scope) => contactRoutes(scope, deps));
  await app.register(async (scope) => marketRoutes(scope, deps));
  await app.register(async (scope) => walletRoutes(scope, deps));
  await app.register(async (scope) => botRoutes(scope, deps));
  await app.register(async (scope) => cycleRoutes(scope, deps));
  await app.register(async (scope) => gridRoutes(scope, deps));
  await app.register(async (scope) => strategyRoutes(scope, deps));
  await app.register(async (scope) => notificationRoutes(scope, deps));
  await app.register(async (scope) => pushRoutes(scope, deps));
  await app.register(async (scope) => securityRoutes(scope, deps));
  // Platform service: only with SUBSCRIPTION_ENABLED; otherwise every /platform path is a 404.
  if (deps.config.subscriptionEnabled) await app.register(async (scope) => platformRoutes(scope, deps));
  await app.register(async (scope) => adminRoutes(scope, deps));
  if (deps.config.devMailbox && !deps.config.production)
    await app.register(async (scope) => devRoutes(scope, deps));

  registerWebApp(app, options.webDistDir, deps.config.production);
  return app;
}

/** Reset links carry their token in the path; request logs show the route without it. */
export function redactUrl(url: string): string {
  return url.replace(/(\/reset-?password\/)[^/?#]+/i, '$1[redacted]');
}

function withRedactedUrls(logger: FastifyServerOptions['logger']): boolean | Record<string, unknown> {
  if (!logger || typeof logger !== 'object') return logger ?? false;
  return {
    ...logger,
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
      ...(logger as { serializers?: Record<string, unknown> }).serializers,
    },
  };
}
