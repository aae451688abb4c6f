import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Security headers on every answer: HTML page, assets, API and errors alike. The session token lives in
 * local storage (docs/spec/01-core-screens.md Session), so a single injected script could read it: scripts come only from this
 * origin (no inline script; the theme bootstrap is the file /theme-init.js) and no other site may frame
 * the app (clickjacking). Styles allow 'unsafe-inline' because the toast library injects its stylesheet
 * at run time; a style cannot read the token.
 */
export async function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): Promise<void> {
  const headers = securityHeadersOf(helmetOptions(publicUrl));
  // The same headers for every request (no per-request nonce): helmet works them out once, here. Building
  // helmet's middleware on each request (@fastify/helmet) cost about as much CPU as the rest of a small API
  // answer.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

function helmetOptions(publicUrl: string): HelmetOptions {
  const https = publicUrl.startsWith('https://');
  return {
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
  };
}

/** The headers helmet's middleware sets with these options, read off a response that only records them. */
export function securityHeadersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}
