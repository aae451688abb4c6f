import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { createOutboxMailer } from '../../mail/mailer';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /dev/mailbox', () => {
  it('lists the outbox outside production', async () => {
    const app = await buildApp({ ...t.deps, mailer: createOutboxMailer(t.deps.db, () => {}) });
    await app.inject({
      method: 'POST',
      url: '/api/forgot-password',
      payload: { email: 'nobody@example.com' },
    });
    await createOutboxMailer(t.deps.db, () => {}).send({ to: 'x@example.com', subject: 'Hi', text: 'Body' });
    const res = await app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { to: 'x@example.com', subject: 'Hi', text: 'Body', sentAt: expect.any(String) },
    ]);
    await app.close();
  });

  it('does not exist in production', async () => {
    const app = await buildApp({ ...t.deps, config: { ...t.deps.config, production: true } });
    const res = await app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(res.statusCode).toBe(404);
    await app.close();
  });
});
