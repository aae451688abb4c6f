-- Sign-up attempts: one row per attempt, keyed by its own id, so a later sign-up for the same e-mail adds
-- a row instead of overwriting the earlier attempt's password and details.
ALTER TABLE "pending_signups" DROP CONSTRAINT "pending_signups_pkey";--> statement-breakpoint
ALTER TABLE "pending_signups" ADD COLUMN "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
CREATE INDEX "pending_signups_email_lower_idx" ON "pending_signups" USING btree ("email_lower");
