-- A worker renews every lease it holds on each heartbeat: 10,000 rows every 5 s for a full worker. With an
-- index on expires_at each renewal wrote a new entry into all three indexes (50–70 ms of a core on this
-- machine, in one burst that the bots' intent writes waited behind). Without it, and with free room on the
-- page, the renewal is a HOT update (16–21 ms). Claims find free or expired leases by a scan of this small table.
DROP INDEX IF EXISTS "bot_leases_expires_idx";
--> statement-breakpoint
ALTER TABLE "bot_leases" SET (fillfactor = 50);
