-- Members who copied a range grid from Copy BOTs, once each (its card counts them).
CREATE TABLE "grid_copies" (
	"bot_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"copied_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "grid_copies_bot_id_user_id_pk" PRIMARY KEY("bot_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "grid_copies" ADD CONSTRAINT "grid_copies_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grid_copies" ADD CONSTRAINT "grid_copies_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;