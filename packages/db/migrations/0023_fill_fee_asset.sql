ALTER TABLE "bot_fills" ADD COLUMN "fee_asset" text DEFAULT 'USDT' NOT NULL;--> statement-breakpoint
ALTER TABLE "bot_fills" ADD COLUMN "fee_paid" numeric;