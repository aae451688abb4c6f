import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** A member. E-mail and username are unique ignoring case (indexes on lower()). */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    contactNo: text('contact_no').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** The user's own referral ID (short, unambiguous characters). */
    userCode: text('user_code').notNull().unique(),
    /** Who referred this user, if anyone. */
    referredBy: uuid('referred_by'),
    role: text('role', { enum: ['user', 'admin'] })
      .notNull()
      .default('user'),
    disclaimerAgreedAt: timestamp('disclaimer_agreed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    index('users_referred_by_idx').on(t.referredBy),
  ],
);

/**
 * A sign-up waiting for its e-mailed code. No account exists until the code is verified.
 * Keyed by the lower-cased e-mail; a new sign-up for the same e-mail replaces the old one.
 */
export const pendingSignups = pgTable('pending_signups', {
  emailLower: text('email_lower').primaryKey(),
  email: text('email').notNull(),
  username: text('username').notNull(),
  contactNo: text('contact_no').notNull(),
  passwordHash: text('password_hash').notNull(),
  referredBy: uuid('referred_by'),
  /** SHA-256 of the current code; the code itself is only ever in the e-mail. */
  otpHash: text('otp_hash').notNull(),
  otpExpiresAt: timestamp('otp_expires_at', { withTimezone: true }).notNull(),
  /** Wrong codes entered against the current code; at 5 the code is dead. */
  failedAttempts: integer('failed_attempts').notNull().default(0),
  lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
