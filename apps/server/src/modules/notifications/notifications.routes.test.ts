import { type AddressInfo, createServer, type Socket } from 'node:net';
import { bots, users } from '@gridbot/db';
import { notificationMessages } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBot } from '../../testing/bot-fixtures';
import { call, registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { WebhookReceiver } from '../../testing/webhook-receiver';
import { WEBHOOK_TIMEOUT_MS, WEBHOOK_UNREACHABLE } from './webhook';

// The test's webhook receiver listens on loopback: allowed only with WEBHOOK_ALLOW_PRIVATE (local testing).
let t: TestApp;
/** A server as deployed: webhooks reach public addresses only. */
let guarded: TestApp;
const receiver = new WebhookReceiver();

async function put(token: string, body: unknown, app = t) {
  const response = await app.app.inject({
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
  t = await createTestApp({ webhookAllowPrivate: true });
  guarded = await createTestApp();
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
  await t.close();
  await guarded.close();
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
  it('refuses loopback, private, link-local, metadata and IPv4-embedding addresses, http included', async () => {
    const user = await registerUser(guarded, 'ssrf');
    for (const webhookUrl of [
      'https://127.0.0.1/hook',
      'https://localhost:8443/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://192.168.0.10/hook',
      'https://[fd00:ec2::254]/hook',
      'https://[::7f00:1]/hook',
      'https://[::ffff:a00:1]/hook',
      'https://[64:ff9b::a9fe:a9fe]/hook',
      'https://[2002:7f00:1::1]/hook',
      receiver.url,
      'http://localhost:3000/hook',
    ]) {
      const res = await put(user.token, { routing: {}, webhookUrl }, guarded);
      expect(res, webhookUrl).toMatchObject({
        status: 400,
        body: { message: notificationMessages.webhookPrivate },
      });
    }
    const settings = await call(guarded, 'GET', '/api/notifications/settings', undefined, {
      token: user.token,
    });
    expect(settings.body.webhookUrl).toBeNull();
  });

  it('answers the test call with the same words at the same time whether the port is refused, closed or filtered', async () => {
    const refused = await closedPort();
    const closing = await listen((socket) => socket.destroy());
    const silent = await listen(() => undefined);
    try {
      const answers = await Promise.all(
        [refused, closing.port, silent.port].map(async (port, i) => {
          const user = await registerUser(t, `ports${i}`);
          const saved = await put(user.token, { routing: {}, webhookUrl: `http://127.0.0.1:${port}/hook` });
          expect(saved.status).toBe(200);
          const startedMs = performance.now();
          const answer = await call(t, 'POST', '/api/notifications/webhook/test', {}, { token: user.token });
          return { body: answer.body, ms: performance.now() - startedMs };
        }),
      );
      expect(answers.map((a) => a.body)).toEqual(Array(3).fill({ ok: false, message: WEBHOOK_UNREACHABLE }));
      // The silent port answers at the timeout; the others wait for it too.
      for (const { ms } of answers) expect(ms).toBeGreaterThanOrEqual(WEBHOOK_TIMEOUT_MS - 50);
    } finally {
      closing.server.close();
      silent.server.close();
    }
  }, 15_000);
});

/** A TCP server on loopback doing `onSocket` with each connection. */
async function listen(onSocket: (socket: Socket) => void) {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = server.close.bind(server);
  server.close = (callback) => {
    for (const socket of sockets) socket.destroy();
    return close(callback);
  };
  return { server, port: (server.address() as AddressInfo).port };
}

/** A loopback port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const { server, port } = await listen(() => undefined);
  await new Promise((resolve) => server.close(resolve));
  return port;
}
