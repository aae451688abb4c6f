// What PostgreSQL's busy connections waited for during a bench's window, printed beside its figures. A commit
// waits for its WAL flush (`IO:WALSync`, or `LWLock:WALWrite` behind another connection's flush); a statement
// on a core shows no wait event; a lock wait shows as `Lock:…`. A tail that grows while the cores are idle is
// told apart this way (docs/benchmarks.md "Bot runtime"). Beside the waits, how much WAL the window wrote and
// in how many flushes.
import { performance } from 'node:perf_hooks';
import type { Db } from '@gridbot/db';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/worker/rows';

const EVERY_MS = 100;
/** Wait events shown by name; the rest are summed as "other". */
const SHOWN = 6;

/**
 * Samples the active statements of the bench's database every 100 ms from `pg_stat_activity` (the sampler's
 * own connection left out) until `stop()`, which answers one line: the share of the samples each wait event
 * held, "CPU" for none, and the server's WAL written meanwhile.
 */
export function sampleWaits(db: Db): { stop: () => Promise<string> } {
  const counts = new Map<string, number>();
  let samples = 0;
  let stopped = false;
  const started = performance.now();
  const walBefore = walCounters(db);
  const loop = (async () => {
    while (!stopped) {
      const rows = rowsOf<{ wait: string; n: string | number }>(
        await db.execute(sql`
          select coalesce(wait_event_type || ':' || wait_event, 'CPU') as wait, count(*) as n
          from pg_stat_activity
          where datname = current_database() and backend_type = 'client backend' and state = 'active'
            and pid <> pg_backend_pid()
          group by 1`),
      );
      for (const row of rows) counts.set(row.wait, (counts.get(row.wait) ?? 0) + Number(row.n));
      samples += 1;
      await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      const seconds = (performance.now() - started) / 1000;
      const [before, after] = [await walBefore, await walCounters(db)];
      return `${describeWaits(counts, samples)}; ${describeWal(before, after, seconds)}`;
    },
  };
}

interface WalCounters {
  fullPages: number;
  bytes: number;
  syncs: number;
}

/** The server's WAL counters (`pg_stat_wal`, PostgreSQL 14 and later): what the commits had to flush. */
async function walCounters(db: Db): Promise<WalCounters> {
  const [row] = rowsOf<Record<keyof WalCounters, string>>(
    await db.execute(sql`
      select wal_fpi as "fullPages", wal_bytes as bytes, wal_sync as syncs
      from pg_stat_wal`),
  );
  return {
    fullPages: Number(row?.fullPages ?? 0),
    bytes: Number(row?.bytes ?? 0),
    syncs: Number(row?.syncs ?? 0),
  };
}

/**
 * "WAL 1.6 MB/s in 21 flushes/s (72 KB a flush, 4 full-page images/s)" between two readings: how much each
 * flush carried, which decides its time far less than the flush itself on most disks.
 */
function describeWal(before: WalCounters, after: WalCounters, seconds: number): string {
  const bytes = after.bytes - before.bytes;
  const syncs = after.syncs - before.syncs;
  const fullPages = after.fullPages - before.fullPages;
  return (
    `WAL ${(bytes / 1e6 / seconds).toFixed(1)} MB/s in ${(syncs / seconds).toFixed(0)} flushes/s ` +
    `(${(bytes / 1024 / Math.max(1, syncs)).toFixed(0)} KB a flush, ${(fullPages / seconds).toFixed(0)} full-page images/s)`
  );
}

/** "PostgreSQL waits (…): IO:WALSync 31 %, CPU 27 %, …" over every active statement seen. */
function describeWaits(counts: ReadonlyMap<string, number>, samples: number): string {
  const seen = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const head = `PostgreSQL waits (${samples} samples every ${EVERY_MS} ms, ${(seen / Math.max(1, samples)).toFixed(1)} active statements on average)`;
  if (seen === 0) return `${head}: no statement active`;
  const sorted = [...counts.entries()].sort(([, a], [, b]) => b - a);
  const share = (n: number) => `${Math.round((n / seen) * 100)} %`;
  const shown = sorted.slice(0, SHOWN).map(([wait, n]) => `${wait} ${share(n)}`);
  const rest = sorted.slice(SHOWN).reduce((sum, [, n]) => sum + n, 0);
  if (rest > 0) shown.push(`other ${share(rest)}`);
  return `${head}: ${shown.join(', ')}`;
}
