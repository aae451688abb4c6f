-- A running bot's engine_state (1–2 kB of JSON, larger as jsonb) is rewritten with every intent and fill, in
-- the statement its order waits for. Past PostgreSQL's default 2 kB tuple target the row is compressed on
-- every write and decompressed on every read; up to 4 kB it is now stored as it is.
ALTER TABLE "bots" SET (toast_tuple_target = 4080);
