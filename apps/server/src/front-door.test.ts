import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppRoute, buildApp } from './app/app';
import type { AppDeps } from './app/deps';
import { createMetrics } from './ops/metrics';
import { UNSTORABLE_VALUE } from './plugins/error-handler';
import { NUL_MESSAGE } from './plugins/request-guards';
import { call, registerUser } from './testing/http';
import { createTestApp, type TestApp } from './testing/test-app';

let t: TestApp;
const dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
beforeAll(async () => {
  t = await createTestApp();
  mkdirSync(join(dist, 'assets'));
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><title>GridBot</title><script src="/theme-init.js"></script>',
  );
  writeFileSync(
    join(dist, 'assets', 'index-abc.js'),
    'console.log(1)\n//# sourceMappingURL=index-abc.js.map',
  );
  writeFileSync(join(dist, 'assets', 'index-abc.js.map'), '{"version":3,"sources":["../src/main.tsx"]}');
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

/** The routes anyone may call without a session. */
const PUBLIC = new Set([
  'POST /api/signup',
  'POST /api/verify-otp',
  'POST /api/resend-otp',
  'POST /api/cyborxlogin',
  'POST /api/forgot-password',
  'POST /api/reset-password/:token',
  'POST /api/contact',
  'GET /api/tickers',
  'GET /healthz',
  'GET /readyz',
  'GET /metrics',
  'HEAD /healthz',
  'HEAD /readyz',
  'HEAD /metrics',
  'HEAD /api/tickers',
  // The push socket signs in with its first message, not a header (push.routes.test.ts: a socket without a
  // valid token is closed before it gets anything).
  'GET /api/push',
]);

const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '0d8f1f3e-7c7a-4a43-9f0e-1f2a3b4c5d6e');

describe('authentication before validation', () => {
  it('answers 401, not the form messages, to an anonymous caller of every login-only route', async () => {
    const routes: AppRoute[] = [];
    const app = await buildApp(t.deps, { routes });
    await app.ready();
    const guarded = routes.filter(
      (r) => /^\/(api|platform)\//.test(r.url) && !PUBLIC.has(`${r.method} ${r.url}`) && r.method !== 'HEAD',
    );
    expect(guarded.length).toBeGreaterThanOrEqual(46);
    for (const route of guarded) {
      const res = await app.inject({
        method: route.method as 'GET',
        url: `${concrete(route.url)}?page=-1&symbol=%00`,
        ...(route.method === 'GET' ? {} : { payload: { amount: 'x', name: {}, nested: [1] } }),
      });
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(401);
    }
    // Not even a body that is not JSON gets a form message first.
    const raw = await app.inject({
      method: 'POST',
      url: '/api/startbotdata',
      headers: { 'content-type': 'application/json' },
      payload: '{"amount":',
    });
    expect(raw.statusCode).toBe(401);
    await app.close();
  });
});

describe('characters PostgreSQL refuses', () => {
  it('answers 400 with a message, never 500, for a NUL in a login id, a sign-up or a query', async () => {
    const user = await registerUser(t, 'nul');
    const cases: [string, string, unknown, string | undefined][] = [
      ['POST', '/api/cyborxlogin', { email: 'a\u0000b', password: 'secret123' }, undefined],
      ['POST', '/api/forgot-password', { email: 'a\u0000@example.com' }, undefined],
      ['POST', '/api/resend-otp', { email: 'x@example.com', username: 'a\u0000' }, undefined],
      ['POST', '/api/createstratagy', { strategy_name: 'n\u0000', grids: 2 }, user.token],
      [
        'POST',
        '/api/contact',
        { name: 'n\u0000', email: 'c@example.com', contactNo: '+15551234567', text: 'hi' },
        undefined,
      ],
    ];
    for (const [method, url, body, token] of cases) {
      const res = await call(t, method as 'POST', url, body, { token, ip: '10.40.0.1' });
      expect(res, url).toMatchObject({ status: 400, body: { message: NUL_MESSAGE } });
    }
    const query = await call(t, 'GET', '/api/candles?symbol=BTC%00USDT&interval=1m', undefined, {
      token: user.token,
    });
    expect(query).toMatchObject({ status: 400, body: { message: NUL_MESSAGE } });
  });

  it('maps any other value the database refuses to 400, and logs neither query parameters nor login ids', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const failing = (code: string) =>
      Object.assign(
        new Error('Failed query: select * from users where lower(email) = $1\nparams: victim@example.com'),
        {
          cause: Object.assign(new Error('database said no'), { code }),
        },
      );
    let next = '22P05';
    const db = new Proxy(t.deps.db, {
      get(target, key, receiver) {
        if (key === 'select' || key === 'transaction')
          return () => {
            throw failing(next);
          };
        return Reflect.get(target, key, receiver);
      },
    }) as AppDeps['db'];
    const app = await buildApp({ ...t.deps, db }, { logger: { level: 'info', stream } });
    const login = { email: 'victim@example.com', password: 'hunter22' };
    const refused = await app.inject({
      method: 'POST',
      url: '/api/cyborxlogin',
      payload: login,
      remoteAddress: '10.41.0.1',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: UNSTORABLE_VALUE });
    next = '57P01';
    const broken = await app.inject({
      method: 'POST',
      url: '/api/cyborxlogin',
      payload: login,
      remoteAddress: '10.41.0.2',
    });
    expect(broken.statusCode).toBe(500);
    const reset = await app.inject({
      method: 'POST',
      url: `/api/reset-password/${'t'.repeat(43)}`,
      payload: { password: 'hunter22' },
      remoteAddress: '10.41.0.3',
    });
    expect(reset.statusCode).toBe(500);
    await app.close();
    const log = lines.join('');
    expect(log).toContain('unhandled error');
    expect(log).not.toContain('victim@example.com');
    expect(log).not.toContain('hunter22');
    expect(log).not.toContain('t'.repeat(43));
  });
});

describe('security headers in production', () => {
  const production = (publicUrl = 'https://gridbot.example.com') =>
    buildApp({ ...t.deps, config: { ...t.deps.config, production: true, publicUrl } }, { webDistDir: dist });

  it('sends CSP, frame-ancestors, nosniff, Referrer-Policy and HSTS on the page, an asset and the API', async () => {
    const app = await production();
    for (const url of [
      '/',
      '/dashboard',
      '/assets/index-abc.js',
      '/api/tickers',
      '/api/me',
      '/api/nothing',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      const h = res.headers;
      const csp = String(h['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toContain("object-src 'none'");
      expect(h['x-content-type-options'], url).toBe('nosniff');
      expect(h['referrer-policy'], url).toBe('no-referrer');
      expect(h['x-frame-options'], url).toBe('DENY');
      expect(h['strict-transport-security'], url).toMatch(/^max-age=31536000/);
    }
    await app.close();
  });

  it('sends no HSTS when the public URL is plain http', async () => {
    const app = await production('http://192.168.1.5:3000');
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(String(res.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
    await app.close();
  });

  it('serves no source map in production', async () => {
    const app = await production();
    expect((await app.inject({ method: 'GET', url: '/assets/index-abc.js.map' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/assets/index-abc.js' })).statusCode).toBe(200);
    await app.close();
    const dev = await buildApp(t.deps, { webDistDir: dist });
    expect((await dev.inject({ method: 'GET', url: '/assets/index-abc.js.map' })).statusCode).toBe(200);
    await dev.close();
  });
});

describe('/metrics', () => {
  const withMetrics = (metricsToken?: string) =>
    buildApp({
      ...t.deps,
      ops: { role: 'all', readiness: () => ({}), metrics: createMetrics('all').registry, metricsToken },
    });

  it('answers only this machine without METRICS_TOKEN', async () => {
    const app = await withMetrics();
    expect(
      (await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode,
    ).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '198.51.100.8' })).statusCode,
    ).toBe(404);
    await app.close();
  });

  it('tells a remote caller of /readyz whether the process is ready, not which part is down', async () => {
    const app = await withMetrics();
    const remote = await app.inject({ method: 'GET', url: '/readyz', remoteAddress: '198.51.100.8' });
    expect(remote.json()).toEqual({ status: 'ready', role: 'all' });
    const local = await app.inject({ method: 'GET', url: '/readyz', remoteAddress: '127.0.0.1' });
    expect(local.json()).toMatchObject({ status: 'ready', checks: { database: true } });
    await app.close();
  });

  it('asks for the token when METRICS_TOKEN is set, from anywhere', async () => {
    const token = 'm'.repeat(32);
    const app = await withMetrics(token);
    const get = (authorization?: string) =>
      app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '198.51.100.8',
        headers: authorization ? { authorization } : {},
      });
    expect((await get()).statusCode).toBe(401);
    expect((await get('Bearer wrong')).statusCode).toBe(401);
    const ok = await get(`Bearer ${token}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('# HELP');
    await app.close();
  });
});
