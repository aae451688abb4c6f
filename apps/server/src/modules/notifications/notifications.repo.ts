import { type Db, notificationEvents, notificationSettings, telegramCursor, users } from '@gridbot/db';
import { alwaysEmailedEvents, type NotificationChannel } from '@gridbot/shared';
import { and, desc, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { EventRow } from './notification-text';

/** Rows of a raw statement (node-postgres and PGlite both answer `{ rows }`). */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

interface RawEvent {
  id: string | number;
  user_id: string;
  type: string;
  bot_id: string | null;
  payload: Record<string, unknown> | string;
  created_at: string | Date;
  read_at: string | Date | null;
}

function eventOf(raw: RawEvent): EventRow {
  return {
    id: Number(raw.id),
    userId: raw.user_id,
    type: raw.type,
    botId: raw.bot_id,
    payload: typeof raw.payload === 'string' ? JSON.parse(raw.payload) : raw.payload,
    createdAt: new Date(raw.created_at),
    readAt: raw.read_at === null ? null : new Date(raw.read_at),
  };
}

/**
 * Writes one delivery per channel the user chose for each new event (only channels that are set up: a
 * linked Telegram chat, a saved webhook; e-mail always for `alwaysEmailedEvents`) and marks the events fanned out, in one statement: a crash
 * leaves either both or neither, so no event is delivered twice on a channel or forgotten. Answers the
 * events it took, for the bell's live update.
 */
export async function fanOut(db: Db, now: Date, limit = 200): Promise<EventRow[]> {
  const alwaysEmailed = sql`(${sql.join(
    alwaysEmailedEvents.map((type) => sql`${type}`),
    sql`, `,
  )})`;
  const result = await db.execute(sql`
    with e as (
      select id, user_id, type from ${notificationEvents}
      where fanned_out = false order by id limit ${limit} for update skip locked),
    routes as (
      select e.id, e.user_id, ch.value as channel
      from e join ${notificationSettings} ns on ns.user_id = e.user_id
      cross join lateral jsonb_array_elements_text(coalesce(ns.routing -> e.type, '[]'::jsonb)) as ch(value)
      where ch.value = 'email'
        or (ch.value = 'telegram' and ns.telegram_chat_id is not null)
        or (ch.value = 'webhook' and ns.webhook_url is not null)
      union
      select e.id, e.user_id, 'email' from e where e.type in ${alwaysEmailed}),
    ins as (
      insert into notification_deliveries (event_id, user_id, channel, next_attempt_at)
      select id, user_id, channel, ${now.toISOString()}::timestamptz from routes on conflict do nothing),
    upd as (
      update ${notificationEvents} as n set fanned_out = true from e where n.id = e.id
      returning n.id, n.user_id, n.type, n.bot_id, n.payload, n.created_at, n.read_at)
    select * from upd order by id`);
  return rowsOf<RawEvent>(result).map(eventOf);
}

/** A delivery claimed for sending, with what its channel needs. */
export interface ClaimedDelivery {
  id: number;
  channel: NotificationChannel;
  attempts: number;
  event: EventRow;
  email: string;
  telegramChatId: string | null;
  webhookUrl: string | null;
  webhookSecretSealed: string | null;
}

/**
 * Takes due deliveries for `claimMs` (another dispatcher skips them meanwhile; a crashed one's claim runs
 * out and the delivery is taken again) and counts the attempt before it is made.
 */
export async function claimDue(db: Db, now: Date, claimMs: number, limit = 50): Promise<ClaimedDelivery[]> {
  const until = new Date(now.getTime() + claimMs).toISOString();
  const at = now.toISOString();
  const result = await db.execute(sql`
    with d as (
      update notification_deliveries as d set claimed_until = ${until}::timestamptz, attempts = d.attempts + 1
      where d.id in (
        select id from notification_deliveries
        where status = 'pending' and next_attempt_at <= ${at}::timestamptz
          and (claimed_until is null or claimed_until <= ${at}::timestamptz)
        order by id limit ${limit} for update skip locked)
      returning d.id, d.event_id, d.channel, d.attempts, d.user_id)
    select d.id as delivery_id, d.channel, d.attempts, e.id, e.user_id, e.type, e.bot_id, e.payload,
      e.created_at, e.read_at, u.email, ns.telegram_chat_id, ns.webhook_url, ns.webhook_secret_sealed
    from d join ${notificationEvents} e on e.id = d.event_id
    join ${users} u on u.id = d.user_id
    left join ${notificationSettings} ns on ns.user_id = d.user_id
    order by d.id`);
  return rowsOf<
    RawEvent & {
      delivery_id: string | number;
      channel: NotificationChannel;
      attempts: number;
      email: string;
      telegram_chat_id: string | null;
      webhook_url: string | null;
      webhook_secret_sealed: string | null;
    }
  >(result).map((raw) => ({
    id: Number(raw.delivery_id),
    channel: raw.channel,
    attempts: Number(raw.attempts),
    event: eventOf(raw),
    email: raw.email,
    telegramChatId: raw.telegram_chat_id,
    webhookUrl: raw.webhook_url,
    webhookSecretSealed: raw.webhook_secret_sealed,
  }));
}

/** Sent: never sent again; the channel is healthy again. */
export async function markSent(db: Db, delivery: ClaimedDelivery, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      update notification_deliveries set status = 'sent', sent_at = ${now.toISOString()}::timestamptz,
        claimed_until = null, last_error = null
      where id = ${delivery.id}`);
    await setHealth(tx as unknown as Db, delivery.event.userId, delivery.channel, false, null);
  });
}

/**
 * A failed attempt: tried again at `retryAt`, or, with no attempt left, given up and the channel marked
 * failing so its owner sees it on the settings page.
 */
export async function markFailed(
  db: Db,
  delivery: ClaimedDelivery,
  error: string,
  retryAt: Date | null,
): Promise<void> {
  const message = error.slice(0, 300);
  await db.transaction(async (tx) => {
    if (retryAt) {
      await tx.execute(sql`
        update notification_deliveries set next_attempt_at = ${retryAt.toISOString()}::timestamptz,
          claimed_until = null, last_error = ${message}
        where id = ${delivery.id}`);
      return;
    }
    await tx.execute(sql`
      update notification_deliveries set status = 'failed', claimed_until = null, last_error = ${message}
      where id = ${delivery.id}`);
    await setHealth(tx as unknown as Db, delivery.event.userId, delivery.channel, true, message);
  });
}

async function setHealth(
  db: Db,
  userId: string,
  channel: NotificationChannel,
  failing: boolean,
  lastError: string | null,
) {
  await db.execute(sql`
    update ${notificationSettings}
    set health = health || jsonb_build_object(${channel}::text, jsonb_build_object('failing', ${failing}::boolean, 'lastError', ${lastError}::text))
    where user_id = ${userId} and coalesce((health -> ${channel}::text ->> 'failing')::boolean, false) <> ${failing}::boolean`);
}

/** The user's latest events for the bell, and how many are unread. */
export async function listEvents(db: Db, userId: string, limit = 30) {
  const rows = await db
    .select()
    .from(notificationEvents)
    .where(eq(notificationEvents.userId, userId))
    .orderBy(desc(notificationEvents.id))
    .limit(limit);
  const [count] = await db
    .select({ unread: sql<number>`count(*)::integer` })
    .from(notificationEvents)
    .where(and(eq(notificationEvents.userId, userId), isNull(notificationEvents.readAt)));
  return { rows, unread: Number(count?.unread ?? 0) };
}

/** Marks the user's events read: the listed ones, or all of them. */
export async function markRead(db: Db, userId: string, ids: readonly number[] | 'all', now: Date) {
  await db
    .update(notificationEvents)
    .set({ readAt: now })
    .where(
      and(
        eq(notificationEvents.userId, userId),
        isNull(notificationEvents.readAt),
        ids === 'all' ? undefined : inArray(notificationEvents.id, [...ids]),
      ),
    );
}

export type SettingsRow = typeof notificationSettings.$inferSelect;

export async function settingsOf(db: Db, userId: string): Promise<SettingsRow | undefined> {
  const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
  return row;
}

export async function upsertSettings(
  db: Db,
  userId: string,
  values: Partial<Omit<SettingsRow, 'userId' | 'updatedAt'>>,
  now: Date,
): Promise<void> {
  await db
    .insert(notificationSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: { ...values, updatedAt: now } });
}

/** Whether some user's Telegram link code is still valid. */
export async function linkCodeWaiting(db: Db, now: Date): Promise<boolean> {
  const [waiting] = await db
    .select({ userId: notificationSettings.userId })
    .from(notificationSettings)
    .where(
      and(
        isNotNull(notificationSettings.telegramLinkCodeHash),
        gt(notificationSettings.telegramLinkExpiresAt, now),
      ),
    )
    .limit(1);
  return waiting !== undefined;
}

/** Links the chat to the user whose valid code has this hash, using up the code; false when none has. */
export async function linkTelegramChat(
  db: Db,
  codeHash: string,
  chatId: string,
  now: Date,
): Promise<boolean> {
  const [row] = await db
    .update(notificationSettings)
    .set({
      telegramChatId: chatId,
      telegramLinkCodeHash: null,
      telegramLinkExpiresAt: null,
      updatedAt: now,
    })
    .where(
      and(
        eq(notificationSettings.telegramLinkCodeHash, codeHash),
        gt(notificationSettings.telegramLinkExpiresAt, now),
      ),
    )
    .returning({ userId: notificationSettings.userId });
  return row !== undefined;
}

/** The id of the first Telegram update not read yet (undefined before the first read). */
export async function nextTelegramUpdateId(db: Db): Promise<number | undefined> {
  const [cursor] = await db.select().from(telegramCursor).where(eq(telegramCursor.id, 1));
  return cursor?.nextUpdateId;
}

export async function saveNextTelegramUpdateId(db: Db, nextUpdateId: number): Promise<void> {
  await db
    .insert(telegramCursor)
    .values({ id: 1, nextUpdateId })
    .onConflictDoUpdate({ target: telegramCursor.id, set: { nextUpdateId } });
}
