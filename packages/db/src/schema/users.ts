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
    /** The TOTP secret (RFC 6238), sealed like API secrets; set once the first code confirmed it. */
    totpSecretSealed: text('totp_secret_sealed'),
    /** A secret shown on the setup screen and not yet confirmed by a code. */
    totpPendingSealed: text('totp_pending_sealed'),
    /** The last 30-second step whose code was accepted: a code is never accepted twice. */
    totpLastStep: integer('totp_last_step'),
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
 * One sign-up attempt waiting for its e-mailed code. No account exists until a code is verified. Each
 * attempt is its own row: a later sign-up for the same unverified e-mail adds an attempt and never touches
 * an earlier one, and a code verifies exactly the attempt it was mailed for.
 */
export const pendingSignups = pgTable(
  'pending_signups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    emailLower: text('email_lower').notNull(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    contactNo: text('contact_no').notNull(),
    passwordHash: text('password_hash').notNull(),
    referredBy: uuid('referred_by'),
    /** SHA-256 of the attempt's current code; the code itself is only ever in the e-mail. */
    otpHash: text('otp_hash').notNull(),
    otpExpiresAt: timestamp('otp_expires_at', { withTimezone: true }).notNull(),
    /** Wrong codes entered for this e-mail while this attempt was live; at 5 its code is dead. */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pending_signups_email_lower_idx').on(t.emailLower)],
);
