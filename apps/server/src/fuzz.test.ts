import { platformMessages } from '@gridbot/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppRoute, buildApp } from './app/app';
import { call, registerUser } from './testing/http';
import { createTestApp, type TestApp } from './testing/test-app';

// Every route of the API, anonymous and signed in (as the administrator, who reaches the admin routes too),
// with hostile input: wrong types, huge and non-finite numbers, NUL and control characters, nested objects,
// __proto__ keys, invalid JSON and oversized bodies. Whatever arrives, the answer is a 4xx with a message or
// a success: never a 5xx.

let t: TestApp;
let app: Awaited<ReturnType<typeof buildApp>>;
/** Every route the app answers (buildApp fills it). */
const appRoutes: AppRoute[] = [];
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  const admin = await registerUser(t, 'fuzz', '10.60.0.1');
  // The administrator of ADMIN_EMAIL is a separate sign-up (createTestApp's adminEmail).
  token = admin.token;
  const adminUser = await call(
    t,
    'POST',
    '/api/signup',
    { email: 'admin@example.com', username: 'fuzzadmin', contactNo: '+15551234567', password: 'secret123' },
    { ip: '10.60.0.2' },
  );
  if (adminUser.status === 200) {
    const code = t.mails.at(-1)?.text.match(/\b(\d{6})\b/)?.[1];
    const verified = await call(
      t,
      'POST',
      '/api/verify-otp',
      { email: 'admin@example.com', otp: code, username: 'fuzzadmin', password: 'secret123' },
      { ip: '10.60.0.2' },
    );
    if (verified.status === 200) token = String(verified.body.token);
  }
  await call(t, 'POST', '/api/apikeys', { apiKey: 'k'.repeat(64), secretKey: 's'.repeat(20) }, { token });
  // Rate limits would turn most requests into 429s and hide the handlers behind them.
  app = await buildApp(
    { ...t.deps, limiter: { hit: async () => undefined, forgive: async () => undefined } },
    { routes: appRoutes },
  );
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await t.close();
});

/** Field names of the shared schemas: objects made of them get past strict schemas to the handlers. */
const FIELDS = [
  'email',
  'password',
  'username',
  'contactNo',
  'otp',
  'referralId',
  'amount',
  'selectPair',
  'pair',
  'category',
  'botType',
  'myStrategy',
  'strategy_name',
  'strategyName',
  'newName',
  'name',
  'noOfGrids',
  'leverage',
  'botID',
  'cycle_id',
  'page',
  'symbol',
  'interval',
  'apiKey',
  'secretKey',
  'from',
  'to',
  'coin',
  'asset',
  'text',
  'toAddress',
  'txHash',
  'reason',
  'planId',
  'priceReachAt',
  'sellPriceAt',
  'stopLossAt',
  'no_of_cycle',
  'sellPausePrice',
  'restartPrice',
  'stoplossPrice',
  'profitbookat',
  'buyPct',
  'takeProfitPct',
  'allottedPct',
  'rewards',
  'kind',
  'limit',
  'market',
  'disclaimerAgree',
  'active',
  'usdtToken',
  'status',
  'id',
  'token',
];

const nasty = fc.string({
  unit: fc.constantFrom(
    'a',
    'Z',
    '0',
    ' ',
    '\u0000',
    '\u0001',
    '\u001f',
    '\u007f',
    '\u2028',
    '\ud800',
    '💥',
    '%',
    '"',
    '\\',
  ),
  maxLength: 30,
});
const numberText = fc.constantFrom(
  '1e999',
  '-1e999',
  '1e308',
  '-0',
  '5e-324',
  '123456789012345678901234567890',
  '0.1',
);
const leaf: fc.Arbitrary<unknown> = fc.oneof(
  nasty,
  fc.string({ maxLength: 10 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER * 1e6, -1e308, 1e308, 0, -1, 1e-300),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('BTCUSDT', 'Spot', 'Future', 'Multigrid', '100', '-5', 'NaN', 'Infinity', ''),
);
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), nasty), tie('v'), { maxKeys: 3 }),
  ),
})).v;
const body = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 });

/** JSON text the serializer cannot write: __proto__ keys, broken syntax, deep nesting, a huge body. */
const BROKEN = [
  '{"__proto__":{"isAdmin":true},"amount":1}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"email":"a@b.c","password":',
  '[1,2,3]',
  '"just a string"',
  'null',
  '{"a":\u0000}',
  '{"email":"\\u0000","name":"\\u0000","symbol":"\\u0000"}',
  `{"text":"${'x'.repeat(300 * 1024)}"}`,
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
];
/** Non-finite and huge numbers, which JSON.stringify would never write. */
const rawBody = fc.oneof(
  fc.tuple(fc.constantFrom(...FIELDS), numberText).map(([k, n]) => `{"${k}":${n}}`),
  fc.constantFrom(...BROKEN),
);
const pathPart = fc.oneof(nasty, fc.uuid(), fc.constantFrom('0', '-1', '1e999', '..', '%00', '%FF', 'null'));

/**
 * Below 500; the one 5xx a route may give is the platform's 503 for deposits on a server without a chain
 * (a state of the deployment, not of the input).
 */
function expectNoServerError(res: { statusCode: number; body: string }, what: string) {
  if (res.statusCode === 503 && res.body.includes(platformMessages.depositsNotConfigured)) return;
  expect(res.statusCode, `${what} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
}

const fill = (url: string, parts: string[]) => {
  let i = 0;
  // A lone surrogate has no UTF-8 form: it goes out as the bytes of one (invalid UTF-8), as a hostile
  // client would send it.
  const encode = (part: string) => {
    try {
      return encodeURIComponent(part);
    } catch {
      return '%ED%A0%80';
    }
  };
  return url.replace(/:[A-Za-z_]+/g, () => encode(parts[i++] ?? 'x'));
};

const routes = () =>
  appRoutes.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && r.url !== '/api/logout');

describe('every route under hostile input', () => {
  it('answers below 500 to bodies, queries and path parameters of any shape', {
    timeout: 180_000,
  }, async () => {
    const list = routes();
    expect(list.length).toBeGreaterThan(80);
    const request = fc.record({
      route: fc.constantFrom(...list),
      signedIn: fc.boolean(),
      parts: fc.array(pathPart, { minLength: 3, maxLength: 3 }),
      query: fc.dictionary(fc.constantFrom(...FIELDS), nasty, { maxKeys: 3 }),
      payload: fc.oneof(
        body.map((b) => JSON.stringify(b)),
        rawBody,
      ),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ route, signedIn, parts, query, payload }) => {
        const search = new URLSearchParams(query as Record<string, string>).toString();
        const res = await app.inject({
          method: route.method as 'GET',
          url: `${fill(route.url, parts)}${search ? `?${search}` : ''}`,
          remoteAddress: '10.61.0.1',
          headers: {
            ...(signedIn ? { authorization: `Bearer ${token}` } : {}),
            ...(route.method === 'GET' ? {} : { 'content-type': 'application/json' }),
          },
          ...(route.method === 'GET' ? {} : { payload }),
        });
        expectNoServerError(res, `${route.method} ${route.url} ${payload.slice(0, 200)}`);
      }),
      { numRuns: 600, seed: Number(process.env.FUZZ_SEED ?? 20261125) },
    );
  });

  it('answers below 500 to every route with each kind of broken body, signed in', {
    timeout: 180_000,
  }, async () => {
    for (const route of routes().filter((r) => r.method !== 'GET')) {
      for (const payload of BROKEN) {
        const res = await app.inject({
          method: route.method as 'POST',
          url: fill(route.url, ['0d8f1f3e-7c7a-4a43-9f0e-1f2a3b4c5d6e']),
          remoteAddress: '10.61.0.2',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload,
        });
        expectNoServerError(res, `${route.method} ${route.url} ${payload.slice(0, 100)}`);
      }
    }
  });
});
