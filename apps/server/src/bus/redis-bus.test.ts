import type { ChildProcess } from 'node:child_process';
import { eventually } from '@gridbot/exchange/testing';
import { afterEach, expect, it } from 'vitest';
import { freePort } from '../testing/free-port';
import { startRedisServer } from '../testing/redis-server';
import { channels } from './bus';
import { RedisBus } from './redis-bus';

// A private redis-server on a free port, so the shared one on 6379 is never disturbed.
let redis: ChildProcess | undefined;
let bus: RedisBus | undefined;

afterEach(async () => {
  await bus?.close();
  redis?.kill('SIGKILL');
});

it('tells its listeners when the subscriptions are back after Redis restarted, and messages flow again', async () => {
  const port = await freePort();
  redis = await startRedisServer(port);
  bus = new RedisBus({ url: `redis://127.0.0.1:${port}`, log: () => undefined });
  await bus.connect();
  const seen: string[] = [];
  await bus.subscribe(channels.sessions, (message) => seen.push(message));
  let reconnects = 0;
  bus.onReconnect(() => {
    reconnects += 1;
  });
  expect(await bus.publish(channels.sessions, 'one')).toBe(true);
  await eventually(async () => expect(seen).toEqual(['one']));
  expect(reconnects).toBe(0);

  redis.kill('SIGKILL');
  await eventually(async () => expect(bus?.healthy()).toBe(false));
  expect(await bus.publish(channels.sessions, 'lost')).toBe(false);
  redis = await startRedisServer(port);
  await eventually(async () => expect(reconnects).toBe(1), 10_000);
  await eventually(async () => expect(await bus?.publish(channels.sessions, 'two')).toBe(true), 10_000);
  await eventually(async () => expect(seen).toEqual(['one', 'two']));
});
