-- Paper accounts are keyed by the platform user id as text, with no foreign key to users (the paper
-- exchange is a venue of its own). Child foreign keys are dropped and re-added around the type change.
ALTER TABLE "paper_accounts" DROP CONSTRAINT "paper_accounts_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "paper_balances" DROP CONSTRAINT "paper_balances_user_id_paper_accounts_user_id_fk";--> statement-breakpoint
ALTER TABLE "paper_ledger" DROP CONSTRAINT "paper_ledger_user_id_paper_accounts_user_id_fk";--> statement-breakpoint
ALTER TABLE "paper_leverage" DROP CONSTRAINT "paper_leverage_user_id_paper_accounts_user_id_fk";--> statement-breakpoint
ALTER TABLE "paper_orders" DROP CONSTRAINT "paper_orders_user_id_paper_accounts_user_id_fk";--> statement-breakpoint
ALTER TABLE "paper_positions" DROP CONSTRAINT "paper_positions_user_id_paper_accounts_user_id_fk";--> statement-breakpoint
ALTER TABLE "paper_accounts" ALTER COLUMN "user_id" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "paper_balances" ALTER COLUMN "user_id" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "paper_ledger" ALTER COLUMN "user_id" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "paper_leverage" ALTER COLUMN "user_id" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "paper_orders" ALTER COLUMN "user_id" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "paper_positions" ALTER COLUMN "user_id" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "paper_balances" ADD CONSTRAINT "paper_balances_user_id_paper_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."paper_accounts"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_ledger" ADD CONSTRAINT "paper_ledger_user_id_paper_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."paper_accounts"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_leverage" ADD CONSTRAINT "paper_leverage_user_id_paper_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."paper_accounts"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_orders" ADD CONSTRAINT "paper_orders_user_id_paper_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."paper_accounts"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_positions" ADD CONSTRAINT "paper_positions_user_id_paper_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."paper_accounts"("user_id") ON DELETE cascade ON UPDATE no action;
