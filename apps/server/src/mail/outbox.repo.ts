import { type Db, outboxMails } from '@gridbot/db';
import { desc } from 'drizzle-orm';

export async function insertOutboxMail(db: Db, mail: { to: string; subject: string; text: string }) {
  await db.insert(outboxMails).values(mail);
}

/** The newest mails of the outbox, newest first. */
export async function latestOutboxMails(db: Db, limit: number) {
  return db.select().from(outboxMails).orderBy(desc(outboxMails.sentAt)).limit(limit);
}
