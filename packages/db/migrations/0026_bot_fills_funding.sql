-- Futures funding payments are Order Book rows (side FUNDING, no intent seq), once per bot and funding time.
ALTER TABLE "bot_fills" ALTER COLUMN "seq" DROP NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "bot_fills_funding_key" ON "bot_fills" USING btree ("bot_id","client_order_id") WHERE "bot_fills"."side" = 'FUNDING';--> statement-breakpoint
ALTER TABLE "bot_fills" ADD CONSTRAINT "bot_fills_side_check" CHECK ("bot_fills"."side" in ('buy', 'sell', 'FUNDING'));--> statement-breakpoint
ALTER TABLE "bot_fills" ADD CONSTRAINT "bot_fills_seq_check" CHECK (("bot_fills"."side" = 'FUNDING') = ("bot_fills"."seq" is null));