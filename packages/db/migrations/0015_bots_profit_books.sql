-- Running sums of each bot's profitable and losing sells (the Profit Book and Loss Book of the dashboard totals
-- and History), kept by the statement that inserts the fills. The totals read them instead of summing every
-- fill the user ever had on each poll, which grew with the history (a month of an active bot is thousands).
ALTER TABLE "bots" ADD COLUMN "profit_book" numeric DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "bots" ADD COLUMN "loss_book" numeric DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE "bots" AS b SET
  "profit_book" = f.profit,
  "loss_book" = f.loss
FROM (
  SELECT bot_id,
    coalesce(sum(CASE WHEN pnl > 0 THEN pnl ELSE 0 END), 0) AS profit,
    coalesce(sum(CASE WHEN pnl < 0 THEN pnl ELSE 0 END), 0) AS loss
  FROM "bot_fills"
  GROUP BY bot_id
) AS f
WHERE b.id = f.bot_id;
