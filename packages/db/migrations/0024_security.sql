CREATE TABLE "recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "security_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"ip" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "security_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"require_admin_two_factor" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "permissions" jsonb;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "permissions_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_pending_sealed" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_last_step" integer;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_events" ADD CONSTRAINT "security_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recovery_codes_user_idx" ON "recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "security_events_user_idx" ON "security_events" USING btree ("user_id","id");--> statement-breakpoint
-- Security events that the owner must hear about by e-mail become notification events in the same
-- transaction (like migration notification_triggers): a login from a new device, a key change, a
-- withdrawal request. The dispatcher always mails these kinds, whatever the user's routing.
CREATE OR REPLACE FUNCTION gridbot_notify_security_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text := CASE NEW.type
    WHEN 'login_new_device' THEN 'new_device_login'
    WHEN 'key_saved' THEN 'api_key_changed'
    WHEN 'key_removed' THEN 'api_key_changed'
    WHEN 'withdrawal_requested' THEN 'withdrawal_requested'
  END;
BEGIN
  IF kind IS NOT NULL THEN
    INSERT INTO notification_events (user_id, type, payload)
      VALUES (NEW.user_id, kind, NEW.detail || jsonb_build_object('ip', NEW.ip, 'action', NEW.type));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER security_events_notify AFTER INSERT ON security_events FOR EACH ROW
  EXECUTE FUNCTION gridbot_notify_security_event();
--> statement-breakpoint
INSERT INTO security_settings (id) VALUES (1) ON CONFLICT DO NOTHING;
