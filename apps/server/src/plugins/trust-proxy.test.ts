import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app/app';
import { parseEnv } from '../config/env';
import { createTestApp, type TestApp } from '../testing/test-app';
import { authRateRules } from './rate-limit';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Forgot-password for fresh e-mails: only the per-IP limit can stop them. */
async function statuses(
  app: Awaited<ReturnType<typeof buildApp>>,
  remoteAddress: string,
  xff: (i: number) => string,
) {
  const out: number[] = [];
  for (let i = 0; i <= authRateRules.resetPerIp.limit; i += 1) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/forgot-password',
      remoteAddress,
      headers: { 'x-forwarded-for': xff(i) },
      payload: { email: `nobody${i}.${remoteAddress}@example.com` },
    });
    out.push(res.statusCode);
  }
  return out;
}

describe('TRUST_PROXY', () => {
  it('is off by default: a rotated X-Forwarded-For does not get past the per-IP limit', async () => {
    const app = await buildApp({ ...t.deps, config: { ...t.deps.config, production: true } });
    const codes = await statuses(app, '198.51.100.1', (i) => `203.0.113.${i}`);
    expect(codes.slice(0, -1).every((c) => c === 404)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    await app.close();
  });

  it('with a hop count believes only the hops the proxies added', async () => {
    const app = await buildApp({ ...t.deps, config: { ...t.deps.config, trustProxy: 1 } });
    // The client forges the left part; the one proxy appends the address it saw.
    const codes = await statuses(app, '10.0.0.2', (i) => `203.0.113.${i}, 198.51.100.2`);
    expect(codes.at(-1)).toBe(429);
    await app.close();
  });

  it('with a CIDR list believes only the listed proxies', async () => {
    const app = await buildApp({ ...t.deps, config: { ...t.deps.config, trustProxy: ['10.0.0.0/8'] } });
    const codes = await statuses(app, '10.1.2.3', (i) => `203.0.113.${i}, 198.51.100.3`);
    expect(codes.at(-1)).toBe(429);
    // A caller outside the list is its own address, whatever header it sends.
    const direct = await statuses(app, '198.51.100.99', (i) => `10.9.9.${i}`);
    expect(direct.at(-1)).toBe(429);
    await app.close();
  });

  it('parses off, hop counts and address lists, and names a bad entry', () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(parseEnv({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,loopback, fd00::/8' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'loopback',
      'fd00::/8',
    ]);
    expect(() => parseEnv({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: must be false, a hop count/);
    expect(() => parseEnv({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/'10.0.0.0\/33' is none of these/);
  });
});
