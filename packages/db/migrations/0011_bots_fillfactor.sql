-- A running bot's row is rewritten with every intent and fill (engine_state, about 1 KB). Free room on its
-- page lets PostgreSQL update it in place (a HOT update: no new entries in the bots indexes, less WAL).
ALTER TABLE "bots" SET (fillfactor = 50);
--> statement-breakpoint
ALTER TABLE "bot_intents" SET (fillfactor = 70);
