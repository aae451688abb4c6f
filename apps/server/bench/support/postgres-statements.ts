// Which statements PostgreSQL spent a bench's window on, printed beside its figures when the server collects
// them (`pg_stat_statements` in `shared_preload_libraries`; docs/operations.md "PostgreSQL for this workload").
// The CPU per order a bench reports counts PostgreSQL's processes too: this says which statements that is.
import { performance } from 'node:perf_hooks';
import type { Db } from '@gridbot/db';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/worker/rows';

/** Statements shown by name, the most time first; the rest are summed. */
const SHOWN = 6;
/** How much of a statement's text a line shows (batched writes share their first CTE: the tables tell them apart). */
const TEXT_CHARS = 60;

interface Counters {
  query: string;
  calls: number;
  ms: number;
  walBytes: number;
}

/**
 * Reads the statements' counters of the bench's database now; `stop()` reads them again and answers the lines
 * to print, or one saying why there are none (the module is not loaded).
 */
export function statementsOver(db: Db): { stop: () => Promise<string> } {
  const started = performance.now();
  const before = read(db);
  return {
    async stop() {
      const seconds = (performance.now() - started) / 1000;
      const first = await before;
      if (first === undefined)
        return 'PostgreSQL statements: not collected (load pg_stat_statements to see them)';
      const second = (await read(db)) ?? new Map<string, Counters>();
      return describe(first, second, seconds);
    },
  };
}

/** The counters per statement, or undefined where the server does not collect them. */
async function read(db: Db): Promise<Map<string, Counters> | undefined> {
  try {
    await db.execute(sql`create extension if not exists pg_stat_statements`);
    const rows = rowsOf<{ id: string; query: string; calls: string; ms: string; wal: string }>(
      await db.execute(sql`
        select queryid::text as id, query, calls, total_exec_time as ms, wal_bytes as wal
        from pg_stat_statements
        where dbid = (select oid from pg_database where datname = current_database())`),
    );
    return new Map(
      rows.map((row) => [
        row.id,
        { query: row.query, calls: Number(row.calls), ms: Number(row.ms), walBytes: Number(row.wal) },
      ]),
    );
  } catch {
    return undefined;
  }
}

/**
 * "PostgreSQL statements (1,234 ms of execution a second): 41 % insert into bot_intents … (120/s, 0.9 ms,
 * 2.1 KB WAL each); …": the window's statements by execution time, with calls, time and WAL per call.
 */
function describe(before: Map<string, Counters>, after: Map<string, Counters>, seconds: number): string {
  const deltas = [...after.entries()]
    .map(([id, now]) => {
      const then = before.get(id);
      return {
        query: now.query,
        calls: now.calls - (then?.calls ?? 0),
        ms: now.ms - (then?.ms ?? 0),
        walBytes: now.walBytes - (then?.walBytes ?? 0),
      };
    })
    .filter((d) => d.calls > 0)
    .sort((a, b) => b.ms - a.ms);
  const totalMs = deltas.reduce((sum, d) => sum + d.ms, 0);
  const head = `PostgreSQL statements (${(totalMs / seconds).toFixed(0)} ms of execution a second, ${deltas.length} kinds)`;
  if (totalMs === 0) return `${head}: none`;
  const share = (ms: number) => `${Math.round((ms / totalMs) * 100)} %`;
  const lines = deltas.slice(0, SHOWN).map((d) => {
    const text = `${d.query.replace(/\s+/g, ' ').slice(0, TEXT_CHARS)}${writesOf(d.query)}`;
    const each = `${(d.ms / d.calls).toFixed(2)} ms, ${(d.walBytes / d.calls / 1024).toFixed(1)} KB WAL each`;
    return `  ${share(d.ms)} ${text} (${(d.calls / seconds).toFixed(0)}/s, ${each})`;
  });
  const rest = deltas.slice(SHOWN).reduce((sum, d) => sum + d.ms, 0);
  if (rest > 0) lines.push(`  ${share(rest)} the other ${deltas.length - SHOWN}`);
  return `${head}:\n${lines.join('\n')}`;
}

/** " [writes bots, bot_intents]": the tables a statement inserts into or updates, in its order. */
function writesOf(query: string): string {
  // Not `on conflict … do update set`, which names no table.
  const tables = [...query.matchAll(/\b(?:insert into|(?<!do )update)\s+"?(\w+)"?/gi)].map((m) => m[1]!);
  return tables.length > 0 ? ` [writes ${[...new Set(tables)].join(', ')}]` : '';
}
