import { contactMessages, type Db } from '@gridbot/db';

/** Stores a message sent through the public contact form. */
export async function insertContactMessage(db: Db, message: typeof contactMessages.$inferInsert) {
  await db.insert(contactMessages).values(message);
}
