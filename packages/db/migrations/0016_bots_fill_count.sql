-- How many fills each bot has (its Order Book's total), kept by the statement that inserts the fills like the
-- books of 0015: the Order Book counted every fill of the bot on each poll of its page.
ALTER TABLE "bots" ADD COLUMN "fill_count" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE "bots" AS b SET "fill_count" = f.n
FROM (SELECT bot_id, count(*)::integer AS n FROM "bot_fills" GROUP BY bot_id) AS f
WHERE b.id = f.bot_id;
