-- One running bot or cycle per user, pair and category, decided by the database (two starts at once both passed
-- the check made before either inserted). A database that already holds such a pair stops here: stop one.
CREATE UNIQUE INDEX "bots_one_running_per_pair" ON "bots" USING btree ("user_id","symbol","category") WHERE "bots"."status" in ('Live', 'Pause', 'Stopping');