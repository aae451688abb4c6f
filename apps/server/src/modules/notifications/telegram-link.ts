import { randomInt } from 'node:crypto';
import type { Db } from '@gridbot/db';
import { sha256 } from '../../lib/tokens';
import {
  linkCodeWaiting,
  linkTelegramChat,
  nextTelegramUpdateId,
  saveNextTelegramUpdateId,
  upsertSettings,
} from './notifications.repo';
import type { TelegramApi } from './telegram-api';

const LINK_CODE_TTL_MS = 15 * 60_000;
// No 0/O or 1/I: the code is read off a screen and typed into a phone.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A fresh one-time code for linking a chat (only its hash is stored); it replaces an earlier one. */
export async function createLinkCode(
  db: Db,
  userId: string,
  now: Date,
): Promise<{ code: string; expiresAt: Date }> {
  const code = Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  const expiresAt = new Date(now.getTime() + LINK_CODE_TTL_MS);
  await upsertSettings(
    db,
    userId,
    { telegramLinkCodeHash: sha256(code), telegramLinkExpiresAt: expiresAt },
    now,
  );
  return { code, expiresAt };
}

/** The code in a message: "/start CODE" (a t.me deep link) or the code alone. */
export function codeIn(text: string): string | null {
  const match = /^(?:\/start\s+)?([A-Z0-9]{8})$/i.exec(text.trim());
  return match ? match[1]!.toUpperCase() : null;
}

/**
 * Reads the bot's new messages and links the chat of each valid code to its user. Asks Telegram only while
 * some code is waiting, so an idle platform makes no calls. The offset is kept in the database: a message
 * is read once whichever process polls (core.telegram.org/bots/api#getupdates).
 */
export async function pollTelegramLinks(db: Db, api: TelegramApi, now: Date): Promise<number> {
  if (!(await linkCodeWaiting(db, now))) return 0;
  const updates = await api.getUpdates(await nextTelegramUpdateId(db), 0);
  let linked = 0;
  for (const update of updates) {
    const text = update.message?.text;
    const code = text ? codeIn(text) : null;
    if (!code || !update.message) continue;
    const chatId = String(update.message.chat.id);
    if (!(await linkTelegramChat(db, sha256(code), chatId, now))) continue;
    linked += 1;
    await api
      .sendMessage(
        chatId,
        'This chat now gets your Gridbot notifications. Choose which ones on the Notifications page.',
      )
      .catch(() => undefined);
  }
  const last = updates.at(-1);
  if (last) await saveNextTelegramUpdateId(db, last.update_id + 1);
  return linked;
}
