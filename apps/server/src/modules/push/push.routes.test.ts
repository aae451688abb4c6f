import { users } from '@gridbot/db';
import type { PushMessage } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { publishUserEvents } from '../../bus/user-events';
import { insertBot } from '../../testing/bot-fixtures';
import { call, registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { CLOSE } from './push-hub';

let t: TestApp;
let url: string;

/** A client socket that keeps every message and its close code. */
async function connect(token?: string) {
  const socket = new WebSocket(url);
  const messages: PushMessage[] = [];
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('message', (data) => messages.push(JSON.parse(data.toString()) as PushMessage));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  if (token) socket.send(JSON.stringify({ type: 'auth', token }));
  const next = async (predicate: (m: PushMessage) => boolean, timeoutMs = 2_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = messages.find(predicate);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no such message; got ${JSON.stringify(messages)}`);
  };
  return { socket, messages, closed, next };
}

async function userIdByEmail(email: string): Promise<string> {
  const [row] = await t.deps.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  url = `ws://127.0.0.1:${address.port}/api/push`;
});
afterAll(async () => {
  await t.close();
});

describe('push channel', () => {
  it('closes a socket whose first message carries no live token', async () => {
    const client = await connect('x'.repeat(40));
    expect(await client.closed).toBe(CLOSE.unauthorized);
    expect(client.messages).toEqual([]);
  });

  it("sends a signed-in user their own bots' fills, and nobody else's", async () => {
    const alice = await registerUser(t, 'alice');
    const bob = await registerUser(t, 'bob');
    const a = await connect(alice.token);
    const b = await connect(bob.token);
    await a.next((m) => m.type === 'ready');
    await b.next((m) => m.type === 'ready');
    const botId = await insertBot(t.deps.db, await userIdByEmail(alice.email));
    // As the worker publishes it: a batched write that does not name the user.
    await publishUserEvents(t.deps.userEvents!, [{ kind: 'bot', botId, change: 'fill', status: 'Live' }]);
    expect(await a.next((m) => m.type === 'bot')).toEqual({
      type: 'bot',
      botId,
      change: 'fill',
      status: 'Live',
    });
    // Bob's own fill, published after Alice's, reaches him: Alice's would have come first.
    const bobBotId = await insertBot(t.deps.db, await userIdByEmail(bob.email));
    await publishUserEvents(t.deps.userEvents!, [
      { kind: 'bot', botId: bobBotId, change: 'fill', status: 'Live' },
    ]);
    await b.next((m) => m.type === 'bot');
    expect(b.messages.flatMap((m) => (m.type === 'bot' ? [m.botId] : []))).toEqual([bobBotId]);
    a.socket.close();
    b.socket.close();
  });

  it('sends the prices of the pairs the page shows', async () => {
    const user = await registerUser(t, 'prices');
    const client = await connect(user.token);
    await client.next((m) => m.type === 'ready');
    client.socket.send(JSON.stringify({ type: 'prices', pairs: [{ market: 'spot', symbol: 'BTCUSDT' }] }));
    const price = await client.next((m) => m.type === 'price');
    expect(price).toEqual({
      type: 'price',
      market: 'spot',
      symbol: 'BTCUSDT',
      price: String(t.feed.lastPrice('BTCUSDT', 'spot')),
    });
    client.socket.close();
  });

  it('drops a client that does not read instead of buffering for it without bound', async () => {
    const user = await registerUser(t, 'slow');
    const client = await connect(user.token);
    await client.next((m) => m.type === 'ready');
    client.socket.pause();
    const userId = await userIdByEmail(user.email);
    const item = {
      id: '1',
      type: 'bot_paused' as const,
      title: 'Bot paused',
      body: 'x'.repeat(2_000),
      botId: null,
      botType: null,
      createdAt: new Date().toISOString(),
      read: false,
    };
    const flood = Array.from({ length: 10_000 }, () => ({ kind: 'notification' as const, userId, item }));
    await publishUserEvents(t.deps.userEvents!, flood);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    client.socket.resume();
    await client.closed;
    expect(client.messages.length).toBeLessThan(flood.length);
  }, 15_000);

  it('ends the socket once its token is revoked', async () => {
    const user = await registerUser(t, 'revoked');
    const client = await connect(user.token);
    await client.next((m) => m.type === 'ready');
    expect((await call(t, 'POST', '/api/logout', {}, { token: user.token })).status).toBe(200);
    expect(await client.closed).toBe(CLOSE.unauthorized);
  }, 15_000);
});
