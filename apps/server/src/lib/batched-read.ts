import type { Db } from '@gridbot/db';
import { type SQL, sql } from 'drizzle-orm';
import { Batcher } from './batcher';

/**
 * The requests of one batch as a table `a` for a prepared statement: `a.i` (the request's index in the batch)
 * and `columns`, read from the JSON array bound to the placeholder `askers`. A statement selects `a.i` as
 * `asker` beside its columns, so every request gets its own rows back.
 */
export function askersTable(columns: string): SQL {
  return sql`jsonb_to_recordset(${sql.placeholder('askers')}::jsonb) as a(i integer, ${sql.raw(columns)})`;
}

/**
 * `columns` as the outer query selects them from the subquery `sub` that selected them (a lateral join over
 * the askers): the same keys and result types, read from the subquery's alias.
 */
export function selectedFrom<T extends Record<string, unknown>>(sub: object, columns: T): T {
  const fields = sub as Record<string, unknown>;
  return Object.fromEntries(Object.keys(columns).map((key) => [key, fields[key]])) as T;
}

/** Read requests in flight at once per statement: two, so a new batch need not wait for a slow one. */
const CONCURRENT_READS = 2;

/**
 * A read that many concurrent requests share (the dashboard polls of many users): requests that arrive while
 * the statement runs are answered together by its next run, one round trip to the database for all of them.
 * Alone, a request goes out at once. `run` executes the statement with the JSON of the batch (each item as
 * `asJson` gives it, with its index `i`; see `askersTable`); each row's `asker` says whose it is.
 */
export function batchedRead<Item, Row extends { asker: number }>(
  run: (askersJson: string) => Promise<Row[]>,
  asJson: (item: Item) => Record<string, unknown>,
): Batcher<Item, Omit<Row, 'asker'>[]> {
  return new Batcher(
    async (items) => {
      const rows = await run(JSON.stringify(items.map((item, i) => ({ i, ...asJson(item) }))));
      const byAsker = items.map(() => [] as Omit<Row, 'asker'>[]);
      for (const { asker, ...row } of rows) byAsker[asker]?.push(row);
      return byAsker;
    },
    { concurrency: CONCURRENT_READS, minBatch: 1 },
  );
}

const perDbValues = new WeakMap<Db, Map<string, unknown>>();

/** One value per database and key, made on first use (prepared statements, batchers). */
export function perDb<T>(db: Db, key: string, make: () => T): T {
  let byKey = perDbValues.get(db);
  if (!byKey) {
    byKey = new Map();
    perDbValues.set(db, byKey);
  }
  let value = byKey.get(key) as T | undefined;
  if (value === undefined) {
    value = make();
    byKey.set(key, value);
  }
  return value;
}
