-- Paper futures: the latest funding time each bot has settled, so funding times missed while no worker ran are booked once.
ALTER TABLE "bots" ADD COLUMN "funded_through_ms" bigint;
