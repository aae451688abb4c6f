import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bots, createTestDb, type DbHandle, notificationDeliveries, notificationEvents } from '@gridbot/db';
import { SYMBOLS } from '@gridbot/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../lib/secret-box';
import { insertBot, insertUserWithKeys } from '../../testing/bot-fixtures';
import { serverNodeArgs } from '../../testing/server-process';
import { WebhookReceiver } from '../../testing/webhook-receiver';
import { upsertSettings } from './notifications.repo';

// SIGKILL between a change and the delivery of its notification, at random moments, over and over: no
// notification is lost, and none reaches the user's webhook as two different deliveries. A process killed
// after the receiver got a delivery but before recording it sends that delivery again (no channel can
// take back a message), with the same X-Gridbot-Delivery id, which the receiver drops.
// PostgreSQL only: two processes share the database.
const MASTER_KEY = 'ab'.repeat(32);
const KILLS = 12;
const BOTS = 120;
const child = fileURLToPath(new URL('../../testing/outbox-crash-child.ts', import.meta.url));

let handle: DbHandle;
const receiver = new WebhookReceiver();

function start(changes: boolean): ChildProcess {
  return spawn(process.execPath, serverNodeArgs(child), {
    env: {
      ...process.env,
      DATABASE_URL: handle.url,
      MASTER_KEY,
      CHANGES: changes ? '1' : '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** Resolves once the process has its database and dispatcher. */
const ready = (process: ChildProcess) =>
  new Promise<void>((resolve) => process.stdout?.once('data', () => resolve()));

const killed = (process: ChildProcess) =>
  new Promise<void>((resolve) => {
    process.once('exit', () => resolve());
    process.kill('SIGKILL');
  });

beforeAll(async () => {
  handle = await createTestDb();
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
  await handle.close();
});

describe('notification outbox under SIGKILL', () => {
  it(`loses no notification and delivers none twice over ${KILLS} kills`, async () => {
    const secrets = SecretBox.fromKey(Buffer.from(MASTER_KEY, 'hex'));
    receiver.secret = 'whsec_crash-test-key';
    // A user runs one bot per pair: the bots belong to several users, each with the same webhook.
    const userIds: string[] = [];
    for (let i = 0; i < BOTS; i += 1) {
      if (i % SYMBOLS.length === 0) {
        const userId = await insertUserWithKeys(handle.db, secrets);
        await upsertSettings(
          handle.db,
          userId,
          {
            routing: { bot_stopped: ['webhook'] },
            webhookUrl: receiver.url,
            webhookSecretSealed: secrets.seal(receiver.secret),
          },
          new Date(),
        );
        userIds.push(userId);
      }
      await insertBot(handle.db, userIds.at(-1)!, { symbol: SYMBOLS[i % SYMBOLS.length] });
    }

    for (let kill = 0; kill < KILLS; kill += 1) {
      const process = start(true);
      await ready(process);
      // It changes and delivers for a random while, then dies mid-flight.
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 400));
      await killed(process);
    }
    const drain = start(false);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [pending] = await handle.db
        .execute<{ n: number }>(sql`
        select (select count(*) from notification_events where fanned_out = false)
          + (select count(*) from notification_deliveries where status <> 'sent') as n`)
        .then((r) => (r as unknown as { rows: { n: number }[] }).rows);
      if (Number(pending?.n) === 0) break;
      if (Date.now() > deadline) throw new Error('deliveries did not finish');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await killed(drain);

    const stopped = await handle.db.select({ id: bots.id }).from(bots).where(eq(bots.status, 'Stopped'));
    const events = await handle.db.select().from(notificationEvents);
    const deliveries = await handle.db.select().from(notificationDeliveries);
    expect(stopped.length).toBeGreaterThan(20);
    // One event per committed stop, written with it.
    expect(events.map((e) => e.botId).sort()).toEqual(stopped.map((b) => b.id).sort());
    // One delivery per event and channel, all sent.
    expect(deliveries).toHaveLength(events.length);
    expect(deliveries.every((d) => d.status === 'sent')).toBe(true);
    // Every event reached the receiver; repeats, if any, are the same delivery again.
    const receivedIds = new Set(receiver.received.map((r) => r.deliveryId));
    expect([...receivedIds].sort()).toEqual(deliveries.map((d) => String(d.id)).sort());
    const deliveryOfEvent = new Map<unknown, Set<string>>();
    for (const r of receiver.received) {
      deliveryOfEvent.set(r.body.id, (deliveryOfEvent.get(r.body.id) ?? new Set()).add(r.deliveryId));
    }
    expect(deliveryOfEvent.size).toBe(events.length);
    expect([...deliveryOfEvent.values()].every((ids) => ids.size === 1)).toBe(true);
  }, 180_000);
});
