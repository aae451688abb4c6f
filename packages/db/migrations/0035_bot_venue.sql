-- The exchange a bot was started on, so History names it after the member binds another exchange's key.
ALTER TABLE "bots" ADD COLUMN "venue" text;
