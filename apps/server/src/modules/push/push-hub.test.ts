import { EventEmitter } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { systemClock } from '../../lib/clock';
import { registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { SessionCache } from '../identity/session-cache';
import { liveSessionReads } from '../identity/users.repo';
import { CLOSE, PushHub } from './push-hub';

let t: TestApp;
let server: WebSocketServer;
let hub: PushHub;
let url: string;
let reads: ReturnType<typeof liveSessionReads>;

// A hub of its own, so the test sees every session lookup: no cache (each recheck asks the database) and a
// short recheck period, so a timer left behind shows within a second.
beforeAll(async () => {
  t = await createTestApp();
  reads = liveSessionReads(t.deps.db);
  hub = new PushHub({
    db: t.deps.db,
    sessions: new SessionCache(0),
    liveSessions: reads,
    feed: t.feed,
    clock: systemClock,
    log: () => undefined,
    recheckMs: 100,
  });
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (socket) => hub.accept(socket));
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  url = `ws://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  hub.closeAll();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

function open(): Promise<WebSocket> {
  const socket = new WebSocket(url);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

function closed(socket: WebSocket): Promise<number> {
  if (socket.readyState === socket.CLOSED) return Promise.resolve(0);
  return new Promise((resolve) => socket.once('close', (code) => resolve(code)));
}

const activeTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('push hub under a hostile client', () => {
  it('keeps one connection per socket however many auth messages it sends, and nothing once closed', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const user = await registerUser(t, 'flood');
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const timersBefore = activeTimers();
    const lookups = vi.spyOn(reads, 'submit');

    const sockets = await Promise.all(Array.from({ length: 100 }, open));
    const codes = sockets.map(closed);
    let answered = 0;
    for (const socket of sockets) socket.once('message', () => answered++);
    const auth = JSON.stringify({ type: 'auth', token: user.token });
    // All 500 in one go, before the first can have been verified.
    for (const socket of sockets) for (let i = 0; i < 500; i++) socket.send(auth);
    await until(() => answered === sockets.length || sockets.every((s) => s.readyState === s.CLOSED));
    for (const socket of sockets) socket.close();
    const closeCodes = new Set(await Promise.all(codes));
    await until(() => hub.size === 0, 2_000).catch(() => undefined);
    expect(hub.size).toBe(0);

    const lookupsAtClose = lookups.mock.calls.length;
    expect(lookupsAtClose).toBeLessThanOrEqual(100);
    await new Promise((resolve) => setTimeout(resolve, 500)); // five recheck periods
    expect(lookups.mock.calls.length).toBe(lookupsAtClose);
    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
    gc();
    // Loose: 50,000 connections left behind cost about 40 MB.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(15 * 1024 * 1024);
    // The first message signs the socket in; the second ends it, before anything is sent to it.
    expect(closeCodes).toEqual(new Set([CLOSE.badMessage]));
    expect(answered).toBe(0);
  }, 30_000);

  it('never signs in a socket it is closing: a second auth while the first is verified ends it for good', async () => {
    // A socket whose close handshake has not finished (a slow client, a loaded host): `close()` was called,
    // its 'close' event has not come yet.
    const user = await registerUser(t, 'closing');
    const lookups = vi.spyOn(reads, 'submit');
    const before = lookups.mock.calls.length;
    const socket = Object.assign(new EventEmitter(), {
      closedWith: [] as number[],
      sent: [] as unknown[],
      close(code: number) {
        this.closedWith.push(code);
      },
      send(data: unknown) {
        this.sent.push(data);
      },
      terminate() {},
      bufferedAmount: 0,
      readyState: 1,
    });
    hub.accept(socket as unknown as WebSocket);
    const auth = Buffer.from(JSON.stringify({ type: 'auth', token: user.token }));
    socket.emit('message', auth, false);
    socket.emit('message', auth, false);
    expect(socket.closedWith).toEqual([CLOSE.badMessage]);
    // The first auth's lookup answers after the close: the socket is not signed in, and no recheck asks again.
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(hub.size).toBe(0);
    expect(lookups.mock.calls.length - before).toBe(1);
    expect(socket.sent).toEqual([]);
    socket.emit('close');
  });

  it('signs in a socket that sends its token once, and ends its recheck when it closes', async () => {
    const user = await registerUser(t, 'once');
    const timersBefore = activeTimers();
    const sizeBefore = hub.size;
    const socket = await open();
    const ready = new Promise((resolve) => socket.once('message', resolve));
    socket.send(JSON.stringify({ type: 'auth', token: user.token }));
    await ready;
    expect(hub.size).toBe(sizeBefore + 1);
    socket.close();
    await until(() => hub.size === sizeBefore);
    await until(() => activeTimers() <= timersBefore);
  });
});
