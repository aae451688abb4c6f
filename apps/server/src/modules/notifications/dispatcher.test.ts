import { bots, createTestDb, type DbHandle, notificationDeliveries, notificationEvents } from '@gridbot/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../lib/clock';
import { SecretBox } from '../../lib/secret-box';
import type { Mail } from '../../mail/mailer';
import { insertBot, insertUserWithKeys } from '../../testing/bot-fixtures';
import { FakeTelegram } from '../../testing/fake-telegram';
import { WebhookReceiver } from '../../testing/webhook-receiver';
import { NotificationDispatcher } from './dispatcher';
import { settingsOf, upsertSettings } from './notifications.repo';
import { TelegramApi } from './telegram-api';
import { createLinkCode } from './telegram-link';

let handle: DbHandle;
const secrets = SecretBox.fromKey(Buffer.alloc(32, 3));
const telegram = new FakeTelegram();
const receiver = new WebhookReceiver();
let mails: Mail[];
let clock: ReturnType<typeof manualClock>;

function dispatcher(options: { maxAttempts?: number } = {}) {
  return new NotificationDispatcher({
    db: handle.db,
    mailer: { send: async (mail) => void mails.push(mail) },
    secrets,
    telegram: new TelegramApi({ token: telegram.token, username: 'gridbot_test_bot', apiUrl: telegram.url }),
    publicUrl: 'http://localhost:3000',
    // The test's webhook receiver listens on loopback.
    webhookTargets: { allowPrivate: true },
    now: () => clock.now(),
    log: () => undefined,
    maxAttempts: options.maxAttempts ?? 3,
    backoffMs: (attempt) => 1_000 * 2 ** (attempt - 1),
  });
}

async function userWithEveryChannel() {
  const userId = await insertUserWithKeys(handle.db, secrets);
  const chatId = String(Math.floor(Math.random() * 1e9));
  telegram.chats.add(chatId);
  receiver.secret = 'whsec-test-key-0123456789';
  await upsertSettings(
    handle.db,
    userId,
    {
      routing: { bot_stopped: ['email', 'telegram', 'webhook'], bot_paused: ['webhook'] },
      telegramChatId: chatId,
      webhookUrl: receiver.url,
      webhookSecretSealed: secrets.seal(receiver.secret),
    },
    new Date(),
  );
  return { userId, chatId };
}

const stopByStoploss = (botId: string) =>
  handle.db.update(bots).set({ status: 'Stopped', stopReason: 'stoploss' }).where(eq(bots.id, botId));

beforeAll(async () => {
  handle = await createTestDb();
  await telegram.start();
  await receiver.start();
});
afterAll(async () => {
  await telegram.stop();
  await receiver.stop();
  await handle.close();
});
beforeEach(async () => {
  // Each test sees only its own events.
  await handle.db.execute(sql`update notification_events set fanned_out = true`);
  await handle.db.execute(sql`delete from notification_deliveries`);
  mails = [];
  clock = manualClock(new Date());
  receiver.failWith = null;
  receiver.received.length = 0;
  telegram.sent.length = 0;
});

describe('notification outbox', () => {
  it('writes the event only when the change that causes it commits', async () => {
    const { userId } = await userWithEveryChannel();
    const botId = await insertBot(handle.db, userId);
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.update(bots).set({ status: 'Stopped', stopReason: 'stoploss' }).where(eq(bots.id, botId));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(
      await handle.db.select().from(notificationEvents).where(eq(notificationEvents.botId, botId)),
    ).toEqual([]);

    await stopByStoploss(botId);
    const events = await handle.db
      .select()
      .from(notificationEvents)
      .where(eq(notificationEvents.botId, botId));
    expect(events).toMatchObject([
      { userId, type: 'bot_stopped', payload: { reason: 'stoploss', symbol: 'ETHUSDT' } },
    ]);
  });

  it('delivers an event once on each chosen channel, however often the dispatcher runs', async () => {
    const { userId, chatId } = await userWithEveryChannel();
    const botId = await insertBot(handle.db, userId);
    await stopByStoploss(botId);
    const d = dispatcher();
    await d.runOnce();
    await d.runOnce();
    clock.advance(3_600_000);
    await d.runOnce();

    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Gridbot: Bot stopped (stoploss, profit book, liquidation)');
    expect(mails[0]!.text).toContain(`http://localhost:3000/running-bot/${botId}`);
    expect(telegram.sent).toEqual([
      { chatId, text: expect.stringContaining('its stoploss price was reached') },
    ]);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.body).toMatchObject({ type: 'bot_stopped', botId });
    const deliveries = await handle.db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.userId, userId));
    expect(deliveries.map((row) => [row.channel, row.status, row.attempts]).sort()).toEqual([
      ['email', 'sent', 1],
      ['telegram', 'sent', 1],
      ['webhook', 'sent', 1],
    ]);
  });

  it('retries a failing channel with growing waits and marks it failing after the last try', async () => {
    const { userId } = await userWithEveryChannel();
    const botId = await insertBot(handle.db, userId);
    await handle.db
      .update(bots)
      .set({ haltReason: 'Orders keep failing: timeout', status: 'Pause' })
      .where(eq(bots.id, botId));
    await handle.db.update(bots).set({ haltReason: null }).where(eq(bots.id, botId));
    await upsertSettings(
      handle.db,
      userId,
      {
        routing: { order_failures: ['webhook'], bot_stopped: ['webhook'] },
      },
      new Date(),
    );
    receiver.failWith = 500;
    const d = dispatcher({ maxAttempts: 3 });

    expect(await d.runOnce()).toBe(1); // attempt 1 fails: next in 1 s
    expect(await d.runOnce()).toBe(0);
    clock.advance(999);
    expect(await d.runOnce()).toBe(0);
    clock.advance(1);
    expect(await d.runOnce()).toBe(1); // attempt 2 fails: next in 2 s
    clock.advance(1_999);
    expect(await d.runOnce()).toBe(0);
    clock.advance(1);
    expect(await d.runOnce()).toBe(1); // attempt 3 fails: given up
    clock.advance(3_600_000);
    expect(await d.runOnce()).toBe(0);

    const [delivery] = await handle.db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.userId, userId));
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, lastError: 'webhook answered HTTP 500' });
    expect((await settingsOf(handle.db, userId))?.health.webhook).toEqual({
      failing: true,
      lastError: 'webhook answered HTTP 500',
    });

    // The next delivery that goes through clears the mark.
    receiver.failWith = null;
    await handle.db
      .update(bots)
      .set({ status: 'Stopped', stopReason: 'liquidated' })
      .where(eq(bots.id, botId));
    await d.runOnce();
    expect((await settingsOf(handle.db, userId))?.health.webhook).toEqual({
      failing: false,
      lastError: null,
    });
  });

  it('waits as long as Telegram flood control asks before trying again', async () => {
    const { userId } = await userWithEveryChannel();
    await upsertSettings(handle.db, userId, { routing: { bot_stopped: ['telegram'] } }, new Date());
    const botId = await insertBot(handle.db, userId);
    await stopByStoploss(botId);
    telegram.flood(1);
    const d = new NotificationDispatcher({
      ...dispatcherDeps(),
      backoffMs: () => 10,
    });
    expect(await d.runOnce()).toBe(1);
    clock.advance(999);
    expect(await d.runOnce()).toBe(0);
    clock.advance(1);
    expect(await d.runOnce()).toBe(1);
    expect(telegram.sent).toHaveLength(1);
  });

  it('links a Telegram chat when its user sends the one-time code to the bot', async () => {
    const userId = await insertUserWithKeys(handle.db, secrets);
    const { code } = await createLinkCode(handle.db, userId, clock.now());
    telegram.userWrites('424242', 'hello');
    telegram.userWrites('424242', `/start ${code}`);
    await dispatcher().runOnce();
    expect((await settingsOf(handle.db, userId))?.telegramChatId).toBe('424242');
    expect(telegram.sent).toEqual([
      { chatId: '424242', text: expect.stringContaining('now gets your Gridbot') },
    ]);
    // The code is single-use.
    const other = await insertUserWithKeys(handle.db, secrets);
    await createLinkCode(handle.db, other, clock.now());
    telegram.userWrites('999', `/start ${code}`);
    await dispatcher().runOnce();
    expect((await settingsOf(handle.db, other))?.telegramChatId).toBeNull();
  });

  it('answers the bell with events of every type the triggers write', async () => {
    const userId = await insertUserWithKeys(handle.db, secrets);
    await handle.db.execute(sql`
      insert into withdrawals (user_id, amount, fee, to_address) values (${userId}, '10', '1', '0xabc')`);
    await handle.db.execute(sql`update withdrawals set payout_started_at = now() where user_id = ${userId}`);
    await handle.db.execute(
      sql`update withdrawals set status = 'SENT', tx_hash = '0xfeed' where user_id = ${userId}`,
    );
    const types = await handle.db
      .select({ type: notificationEvents.type })
      .from(notificationEvents)
      .where(eq(notificationEvents.userId, userId));
    expect(types.map((t) => t.type)).toEqual(['withdrawal_approved', 'withdrawal_sent']);
  });
});

function dispatcherDeps() {
  return {
    db: handle.db,
    mailer: { send: async (mail: Mail) => void mails.push(mail) },
    secrets,
    telegram: new TelegramApi({ token: telegram.token, username: null, apiUrl: telegram.url }),
    publicUrl: 'http://localhost:3000',
    // The test's webhook receiver listens on loopback.
    webhookTargets: { allowPrivate: true },
    now: () => clock.now(),
    log: () => undefined,
  };
}
