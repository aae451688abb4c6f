-- Notifications are written by triggers so that each one is in the same transaction as the change that
-- causes it, whichever statement makes the change (the worker's batched fill and state writes, the admin's
-- withdrawal decisions, the deposit watcher), and no code path can forget one.
CREATE OR REPLACE FUNCTION gridbot_notify_bot_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text;
  info jsonb := jsonb_build_object('symbol', NEW.symbol, 'category', NEW.category, 'botType', NEW.bot_type);
BEGIN
  IF NEW.halt_reason IS NOT NULL AND OLD.halt_reason IS NULL THEN
    -- The runtime halts a bot whose orders keep failing with this wording (worker/bot-runner.ts).
    kind := CASE WHEN NEW.halt_reason LIKE 'Orders keep failing%' THEN 'order_failures' ELSE 'bot_paused' END;
    info := info || jsonb_build_object('reason', NEW.halt_reason);
  ELSIF NEW.status = 'Stopped' AND OLD.status <> 'Stopped' THEN
    IF NEW.bot_type = 'cycle' AND (NEW.engine_state ->> 'status') = 'Completed' THEN
      kind := 'cycle_completed';
    ELSIF NEW.stop_reason IN ('stoploss', 'profit_book', 'liquidated') THEN
      -- A stop the user asked for is no news to them.
      kind := 'bot_stopped';
      info := info || jsonb_build_object('reason', NEW.stop_reason);
    END IF;
  ELSIF NEW.status = 'Pause' AND OLD.status = 'Live' AND NEW.halt_reason IS NULL THEN
    kind := 'bot_paused';
    info := info || jsonb_build_object('reason', 'The pause price was reached');
  END IF;
  IF kind IS NOT NULL THEN
    INSERT INTO notification_events (user_id, type, bot_id, payload) VALUES (NEW.user_id, kind, NEW.id, info);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- WHEN keeps the hot path cheap: the batched state writes touch thousands of rows whose status is unchanged.
CREATE TRIGGER bots_notify AFTER UPDATE ON bots FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.halt_reason IS DISTINCT FROM NEW.halt_reason)
  EXECUTE FUNCTION gridbot_notify_bot_change();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gridbot_notify_deposit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO notification_events (user_id, type, payload)
    VALUES (NEW.user_id, 'deposit_credited', jsonb_build_object('token', NEW.token, 'amount', NEW.amount::text, 'txHash', NEW.tx_hash));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER deposits_notify AFTER INSERT ON deposits FOR EACH ROW EXECUTE FUNCTION gridbot_notify_deposit();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gridbot_notify_withdrawal() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text;
BEGIN
  IF NEW.status = 'SENT' AND OLD.status <> 'SENT' THEN
    kind := 'withdrawal_sent';
  ELSIF NEW.status = 'REJECTED' AND OLD.status <> 'REJECTED' THEN
    kind := 'withdrawal_rejected';
  ELSIF NEW.payout_started_at IS NOT NULL AND OLD.payout_started_at IS NULL THEN
    -- An administrator approved it and the payout is on its way.
    kind := 'withdrawal_approved';
  END IF;
  IF kind IS NOT NULL THEN
    INSERT INTO notification_events (user_id, type, payload)
      VALUES (NEW.user_id, kind, jsonb_build_object('amount', NEW.amount::text, 'toAddress', NEW.to_address,
        'txHash', NEW.tx_hash, 'reason', NEW.reject_reason));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER withdrawals_notify AFTER UPDATE ON withdrawals FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.payout_started_at IS DISTINCT FROM NEW.payout_started_at)
  EXECUTE FUNCTION gridbot_notify_withdrawal();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gridbot_notify_profit_limit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO notification_events (user_id, type, payload) VALUES (NEW.user_id, 'profit_limit_reached', '{}'::jsonb);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER platform_wallets_notify AFTER UPDATE ON platform_wallets FOR EACH ROW
  WHEN (OLD.available_credit > 0 AND NEW.available_credit <= 0)
  EXECUTE FUNCTION gridbot_notify_profit_limit();
