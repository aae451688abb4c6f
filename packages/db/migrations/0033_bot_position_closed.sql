-- A futures bot's position left open by a stop without a sale, closed afterwards from the Positions panel.
ALTER TABLE "bots" ADD COLUMN "position_closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "position_closed_price" numeric;