-- engine_state is rewritten with every intent and fill, and only ever stored and read whole. As jsonb, PostgreSQL
-- built a binary tree of each state on the way in (for the batched writes, of their whole array first: worse than
-- linearly, 28 ms for 400 states against 3 ms to check them as json) and printed it back on the way out; as json
-- it keeps the text.
ALTER TABLE "bots" ALTER COLUMN "engine_state" SET DATA TYPE json;
