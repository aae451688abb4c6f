import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app/app';
import { parseEnv } from '../../config/env';
import { createOutboxMailer } from '../../mail/mailer';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const withMailbox = (production = false) =>
  buildApp({
    ...t.deps,
    mailer: createOutboxMailer(t.deps.db, () => {}),
    config: { ...t.deps.config, production, devMailbox: true },
  });

describe('GET /dev/mailbox', () => {
  it('lists the outbox to a caller on this machine when DEV_MAILBOX is on', async () => {
    const app = await withMailbox();
    await createOutboxMailer(t.deps.db, () => {}).send({ to: 'x@example.com', subject: 'Hi', text: 'Body' });
    const res = await app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress: '127.0.0.1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { to: 'x@example.com', subject: 'Hi', text: 'Body', sentAt: expect.any(String) },
    ]);
    expect((await app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress: '::1' })).statusCode).toBe(
      200,
    );
    await app.close();
  });

  it('does not exist unless DEV_MAILBOX is on: the default start lists no reset link to anyone', async () => {
    // The takeover: forgot-password for the victim, read the link from the outbox, reset, log in.
    const app = await buildApp({ ...t.deps, mailer: createOutboxMailer(t.deps.db, () => {}) });
    await createOutboxMailer(t.deps.db, () => {}).send({
      to: 'v@example.com',
      subject: 'Reset',
      text: 'link',
    });
    for (const remoteAddress of ['127.0.0.1', '203.0.113.9']) {
      const res = await app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('v@example.com');
    }
    await app.close();
  });

  it('answers 404 to a caller on another machine, and to one forwarded by a local proxy', async () => {
    const app = await withMailbox();
    const remote = await app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress: '192.168.1.20' });
    expect(remote.statusCode).toBe(404);
    const proxied = await app.inject({
      method: 'GET',
      url: '/dev/mailbox',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '198.51.100.4' },
    });
    expect(proxied.statusCode).toBe(404);
    await app.close();
  });

  it('does not exist in production, whatever the flag says', async () => {
    const app = await withMailbox(true);
    const res = await app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress: '127.0.0.1' });
    expect(res.statusCode).toBe(404);
    await app.close();
    expect(() => parseEnv({ NODE_ENV: 'production', DEV_MAILBOX: 'true' })).toThrow(
      /DEV_MAILBOX: must not be true with NODE_ENV=production/,
    );
  });
});

describe('where the embedded server listens', () => {
  it('binds to 127.0.0.1 unless HOST says otherwise; a split role binds to every interface', () => {
    expect(parseEnv({}).HOST).toBe('127.0.0.1');
    expect(parseEnv({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    const market = { ROLE: 'market', REDIS_URL: 'redis://cache:6379', REDIS_PREFIX: 'gridbot:x:' };
    expect(parseEnv(market).HOST).toBe('0.0.0.0');
    expect(parseEnv({}).DEV_MAILBOX).toBe(false);
  });
});
