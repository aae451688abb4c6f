import { type Db, outboxMails } from '@gridbot/db';
import { and, desc, lt, or, sql } from 'drizzle-orm';

/** Mails whose subject starts with `subjectPrefix` are deleted `lifetimeMs` after they were written. */
export interface OutboxLifetime {
  subjectPrefix: string;
  lifetimeMs: number;
}

export async function insertOutboxMail(
  db: Db,
  mail: { to: string; subject: string; text: string },
  sentAt: Date,
) {
  await db.insert(outboxMails).values({ ...mail, sentAt });
}

/** The newest mails of the outbox, newest first. */
export async function latestOutboxMails(db: Db, limit: number) {
  return db.select().from(outboxMails).orderBy(desc(outboxMails.sentAt)).limit(limit);
}

/** Deletes the mails older than their lifetime at `now`; mails no lifetime names are kept. */
export async function deleteExpiredOutboxMails(db: Db, now: Date, lifetimes: readonly OutboxLifetime[]) {
  if (lifetimes.length === 0) return;
  await db
    .delete(outboxMails)
    .where(
      or(
        ...lifetimes.map(({ subjectPrefix, lifetimeMs }) =>
          and(
            sql`starts_with(${outboxMails.subject}, ${subjectPrefix})`,
            lt(outboxMails.sentAt, new Date(now.getTime() - lifetimeMs)),
          ),
        ),
      ),
    );
}
