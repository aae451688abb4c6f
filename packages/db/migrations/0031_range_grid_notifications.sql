-- A range grid's take-profit price stops it as a stoploss does (docs/trading-rules.md §2.6): the user is told
-- the same way. Otherwise as 0022_notification_triggers.sql.
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
    ELSIF NEW.stop_reason IN ('stoploss', 'take_profit', 'profit_book', 'liquidated') THEN
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
