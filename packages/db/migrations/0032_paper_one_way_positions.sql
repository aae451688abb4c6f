-- Paper futures hold one one-way position per symbol, long or short; an order says whether it may only reduce it. Every futures sell placed before was reduce-only, so the open ones stay so.
ALTER TABLE "paper_orders" ADD COLUMN "reduce_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "paper_positions" ADD COLUMN "side" text DEFAULT 'long' NOT NULL;--> statement-breakpoint
UPDATE "paper_orders" SET "reduce_only" = true WHERE "market" = 'future' AND "side" = 'sell';
