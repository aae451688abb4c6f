import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** A message from the contact form (kept, and mailed to ADMIN_EMAIL). */
export const contactMessages = pgTable('contact_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  contactNo: text('contact_no').notNull(),
  email: text('email').notNull(),
  text: text('text').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Mails written to the local outbox when no SMTP server is configured (listed at GET /dev/mailbox). */
export const outboxMails = pgTable('outbox_mails', {
  id: uuid('id').primaryKey().defaultRandom(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
});
