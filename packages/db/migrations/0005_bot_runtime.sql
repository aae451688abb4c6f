CREATE TABLE "bot_commands" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"bot_id" uuid NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "bot_fills" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"bot_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"side" text NOT NULL,
	"grid" integer NOT NULL,
	"price" numeric NOT NULL,
	"qty" numeric NOT NULL,
	"quote" numeric NOT NULL,
	"fee" numeric NOT NULL,
	"pnl" numeric,
	"time_ms" bigint NOT NULL,
	"client_order_id" text NOT NULL,
	CONSTRAINT "bot_fills_bot_seq_key" UNIQUE("bot_id","seq")
);
--> statement-breakpoint
CREATE TABLE "bot_intents" (
	"bot_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"client_order_id" text NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bot_intents_bot_id_seq_pk" PRIMARY KEY("bot_id","seq"),
	CONSTRAINT "bot_intents_client_order_id_unique" UNIQUE("client_order_id")
);
--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "engine_state" jsonb;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "state_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "halt_reason" text;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "stop_reason" text;--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "closed_price" numeric;--> statement-breakpoint
ALTER TABLE "bot_commands" ADD CONSTRAINT "bot_commands_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_fills" ADD CONSTRAINT "bot_fills_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_fills" ADD CONSTRAINT "bot_fills_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_intents" ADD CONSTRAINT "bot_intents_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_commands_queued_idx" ON "bot_commands" USING btree ("bot_id","status");--> statement-breakpoint
CREATE INDEX "bot_fills_bot_time_idx" ON "bot_fills" USING btree ("bot_id","time_ms");--> statement-breakpoint
CREATE INDEX "bot_intents_open_idx" ON "bot_intents" USING btree ("status");