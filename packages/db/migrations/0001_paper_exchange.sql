CREATE TABLE "paper_accounts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_balances" (
	"user_id" uuid NOT NULL,
	"wallet" text NOT NULL,
	"asset" text NOT NULL,
	"free" numeric DEFAULT '0' NOT NULL,
	"locked" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "paper_balances_user_id_wallet_asset_pk" PRIMARY KEY("user_id","wallet","asset")
);
--> statement-breakpoint
CREATE TABLE "paper_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"wallet" text NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric NOT NULL,
	"kind" text NOT NULL,
	"ref_id" text NOT NULL,
	"ts_ms" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_leverage" (
	"user_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"leverage" integer NOT NULL,
	CONSTRAINT "paper_leverage_user_id_symbol_pk" PRIMARY KEY("user_id","symbol")
);
--> statement-breakpoint
CREATE TABLE "paper_orders" (
	"user_id" uuid NOT NULL,
	"client_order_id" text NOT NULL,
	"exchange_order_id" text NOT NULL,
	"market" text NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"price" numeric,
	"quantity" numeric NOT NULL,
	"filled_quantity" numeric NOT NULL,
	"filled_quote" numeric NOT NULL,
	"average_price" numeric,
	"fee" numeric NOT NULL,
	"fee_asset" text NOT NULL,
	"leverage" integer,
	"reserved_asset" text,
	"reserved" numeric NOT NULL,
	"created_ms" bigint NOT NULL,
	"updated_ms" bigint NOT NULL,
	CONSTRAINT "paper_orders_user_id_client_order_id_pk" PRIMARY KEY("user_id","client_order_id")
);
--> statement-breakpoint
CREATE TABLE "paper_positions" (
	"user_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"quantity" numeric NOT NULL,
	"entry_notional" numeric NOT NULL,
	"isolated_margin" numeric NOT NULL,
	"leverage" integer NOT NULL,
	"maint_margin_rate" double precision NOT NULL,
	"liquidation_price" numeric NOT NULL,
	"version" integer NOT NULL,
	"updated_ms" bigint NOT NULL,
	CONSTRAINT "paper_positions_user_id_symbol_pk" PRIMARY KEY("user_id","symbol")
);
--> statement-breakpoint
ALTER TABLE "paper_accounts" ADD CONSTRAINT "paper_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_balances" ADD CONSTRAINT "paper_balances_user_id_paper_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."paper_accounts"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_ledger" ADD CONSTRAINT "paper_ledger_user_id_paper_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."paper_accounts"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_leverage" ADD CONSTRAINT "paper_leverage_user_id_paper_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."paper_accounts"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_orders" ADD CONSTRAINT "paper_orders_user_id_paper_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."paper_accounts"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_positions" ADD CONSTRAINT "paper_positions_user_id_paper_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."paper_accounts"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "paper_ledger_user_idx" ON "paper_ledger" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "paper_orders_status_idx" ON "paper_orders" USING btree ("status","market","symbol");