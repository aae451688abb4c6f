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
const others: RedisBus[] = [];

afterEach(async () => {
  await bus?.close();
  for (const other of others.splice(0)) await other.close();
  redis?.kill('SIGKILL');
});

it('tells its listeners when the subscriptions are back after Redis restarted, and messages flow again', async () => {
  const port = await freePort();
  redis = await startRedisServer(port);
  bus = new RedisBus({ url: `redis://127.0.0.1:${port}`, prefix: 'gridbot:test:', log: () => undefined });
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

it('keeps deployments with different prefixes on one Redis apart, and joins processes with the same one', async () => {
  const port = await freePort();
  redis = await startRedisServer(port);
  const open = async (prefix: string) => {
    const b = new RedisBus({ url: `redis://127.0.0.1:${port}`, prefix, log: () => undefined });
    await b.connect();
    others.push(b);
    return b;
  };
  const staging = await open('gridbot:staging:');
  const production = await open('gridbot:production:');
  const productionApi = await open('gridbot:production:');
  const heard = { staging: [] as string[], production: [] as string[], productionApi: [] as string[] };
  for (const name of ['bots', 'ticks', 'sessions', 'commands', 'userEvents'] as const) {
    await staging.subscribe(channels[name], (m) => heard.staging.push(m));
    await production.subscribe(channels[name], (m) => heard.production.push(m));
    await productionApi.subscribe(channels[name], (m) => heard.productionApi.push(m));
  }
  for (const name of ['bots', 'ticks', 'sessions', 'commands', 'userEvents'] as const) {
    expect(await staging.publish(channels[name], `staging ${name}`)).toBe(true);
    expect(await production.publish(channels[name], `production ${name}`)).toBe(true);
  }
  // Published after every other message: once each bus heard its own, a leak would have arrived before it.
  await staging.publish(channels.bots, 'staging end');
  await production.publish(channels.bots, 'production end');
  const staged = ['bots', 'ticks', 'sessions', 'commands', 'userEvents', 'end'].map((n) => `staging ${n}`);
  const produced = ['bots', 'ticks', 'sessions', 'commands', 'userEvents', 'end'].map(
    (n) => `production ${n}`,
  );
  await eventually(async () => {
    expect(heard.staging).toEqual(staged);
    expect(heard.production).toEqual(produced);
    expect(heard.productionApi).toEqual(produced);
  });
});
