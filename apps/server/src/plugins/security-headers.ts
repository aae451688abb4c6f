import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every answer: HTML page, assets, API and errors alike. The session token lives in
 * local storage (docs/spec/01-core-screens.md Session), so a single injected script could read it: scripts come only from this
 * origin (no inline script; the theme bootstrap is the file /theme-init.js) and no other site may frame
 * the app (clickjacking). Styles allow 'unsafe-inline' because the toast library injects its stylesheet
 * at run time; a style cannot read the token.
 */
export async function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): Promise<void> {
  const https = publicUrl.startsWith('https://');
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // Only behind https: on plain http (a LAN address) it would send every asset request to https.
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // Reset links carry their token in the path: no page of ours hands its URL to another site.
    referrerPolicy: { policy: 'no-referrer' },
    // HSTS only when the public URL is https: on http it would be ignored or, worse, pin a LAN host.
    strictTransportSecurity: https ? { maxAge: 365 * 24 * 3600, includeSubDomains: false } : false,
    xFrameOptions: { action: 'deny' },
  });
}
