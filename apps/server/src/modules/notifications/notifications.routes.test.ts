import { bots, users } from '@gridbot/db';
import { notificationMessages } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBot } from '../../testing/bot-fixtures';
import { call, registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { WebhookReceiver } from '../../testing/webhook-receiver';

let t: TestApp;
const receiver = new WebhookReceiver();

async function put(token: string, body: unknown) {
  const response = await t.app.inject({
    method: 'PUT',
    url: '/api/notifications/settings',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return { status: response.statusCode, body: response.json() };
}

async function userIdByEmail(email: string) {
  const [row] = await t.deps.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
  await t.close();
});

describe('notification routes', () => {
  it('lists the signed-in user’s events with the unread count, and marks them read', async () => {
    const user = await registerUser(t, 'bell');
    const other = await registerUser(t, 'other');
    const botId = await insertBot(t.deps.db, await userIdByEmail(user.email));
    await t.deps.db
      .update(bots)
      .set({ status: 'Stopped', stopReason: 'profit_book' })
      .where(eq(bots.id, botId));

    const list = await call(t, 'GET', '/api/notifications', undefined, { token: user.token });
    expect(list.body).toMatchObject({
      unread: 1,
      items: [{ type: 'bot_stopped', botId, botType: 'multigrid', read: false }],
    });
    expect((await call(t, 'GET', '/api/notifications', undefined, { token: other.token })).body).toEqual({
      unread: 0,
      items: [],
    });
    // Another user's ids are ignored.
    const items = list.body.items as { id: string }[];
    await call(t, 'POST', '/api/notifications/read', { ids: [items[0]!.id] }, { token: other.token });
    expect((await call(t, 'GET', '/api/notifications', undefined, { token: user.token })).body.unread).toBe(
      1,
    );
    const read = await call(t, 'POST', '/api/notifications/read', {}, { token: user.token });
    expect(read.body).toEqual({ unread: 0 });
  });

  it('saves which events go where and gives a webhook a signing key', async () => {
    const user = await registerUser(t, 'settings');
    const saved = await put(user.token, {
      routing: { bot_stopped: ['email', 'webhook'] },
      webhookUrl: receiver.url,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      routing: { bot_stopped: ['email', 'webhook'] },
      webhookUrl: receiver.url,
      webhookSecret: expect.stringMatching(/^whsec_/),
      telegram: { available: false, linked: false },
      health: { webhook: { failing: false } },
    });
    receiver.secret = saved.body.webhookSecret;
    const test = await call(t, 'POST', '/api/notifications/webhook/test', {}, { token: user.token });
    expect(test.body).toEqual({ ok: true, message: 'The webhook answered with success.' });
    expect(receiver.received.at(-1)?.body).toMatchObject({ type: 'test' });

    receiver.secret = 'not-the-key';
    const wrong = await call(t, 'POST', '/api/notifications/webhook/test', {}, { token: user.token });
    expect(wrong.body).toEqual({ ok: false, message: 'webhook answered HTTP 401' });
  });

  it('refuses a webhook that is not https and an unknown event', async () => {
    const user = await registerUser(t, 'bad');
    const plain = await put(user.token, { routing: {}, webhookUrl: 'http://example.com/hook' });
    expect(plain).toMatchObject({ status: 400 });
    const unknown = await put(user.token, { routing: { rocket: ['email'] }, webhookUrl: null });
    expect(unknown.status).toBe(400);
  });

  it('answers 401 without a token', async () => {
    expect((await call(t, 'GET', '/api/notifications')).status).toBe(401);
    expect((await call(t, 'GET', '/api/notifications/settings')).status).toBe(401);
  });
});

describe('webhook URLs that point inside the network', () => {
  it('refuses https URLs that resolve to loopback, private, link-local or metadata addresses', async () => {
    const user = await registerUser(t, 'ssrf');
    for (const webhookUrl of [
      'https://127.0.0.1/hook',
      'https://localhost:8443/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://192.168.0.10/hook',
      'https://[fd00:ec2::254]/hook',
    ]) {
      const res = await put(user.token, { routing: {}, webhookUrl });
      expect(res, webhookUrl).toMatchObject({
        status: 400,
        body: { message: notificationMessages.webhookPrivate },
      });
    }
    const settings = await call(t, 'GET', '/api/notifications/settings', undefined, { token: user.token });
    expect(settings.body.webhookUrl).toBeNull();
  });
});
