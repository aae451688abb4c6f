-- engine_state is rewritten with every intent and fill and only ever stored and read whole. As jsonb, PostgreSQL
-- built a binary tree of each state on the way in (more than the rest of a tick's write costs, and worse than
-- linearly for the batched statements' arrays) and printed it back on the way out; as json it keeps the text.
ALTER TABLE "bots" ALTER COLUMN "engine_state" SET DATA TYPE json;
