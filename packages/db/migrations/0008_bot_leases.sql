CREATE TABLE "bot_leases" (
	"bot_id" uuid PRIMARY KEY NOT NULL,
	"owner" text,
	"expires_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "workers" (
	"id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bot_leases" ADD CONSTRAINT "bot_leases_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_leases_owner_idx" ON "bot_leases" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "bot_leases_expires_idx" ON "bot_leases" USING btree ("expires_at");