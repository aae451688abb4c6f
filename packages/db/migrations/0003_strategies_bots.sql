CREATE TABLE "bots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"bot_type" text NOT NULL,
	"strategy_id" uuid,
	"strategy_name" text NOT NULL,
	"strategy_snapshot" jsonb NOT NULL,
	"symbol" text NOT NULL,
	"category" text NOT NULL,
	"status" text DEFAULT 'Live' NOT NULL,
	"investment" numeric NOT NULL,
	"leverage" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stopped_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cycles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"category" text NOT NULL,
	"status" text DEFAULT 'WaitBuy' NOT NULL,
	"amount" numeric NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stopped_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "strategies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"no_of_grids" integer NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"params" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "strategies_grid_count_check" CHECK ("strategies"."no_of_grids" >= 1 AND "strategies"."no_of_grids" <= CASE WHEN "strategies"."kind" = 'scalping' THEN 10 ELSE 50 END)
);
--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_strategy_id_strategies_id_fk" FOREIGN KEY ("strategy_id") REFERENCES "public"."strategies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cycles" ADD CONSTRAINT "cycles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategies" ADD CONSTRAINT "strategies_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bots_user_id_status_idx" ON "bots" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "bots_strategy_id_idx" ON "bots" USING btree ("strategy_id");--> statement-breakpoint
CREATE INDEX "cycles_user_id_status_idx" ON "cycles" USING btree ("user_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "strategies_user_kind_name_key" ON "strategies" USING btree ("user_id","kind",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "strategies_system_kind_name_key" ON "strategies" USING btree ("kind",lower("name")) WHERE "strategies"."user_id" IS NULL;