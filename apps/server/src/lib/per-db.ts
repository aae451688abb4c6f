import type { Db } from '@gridbot/db';

const perDbValues = new WeakMap<Db, Map<string, unknown>>();

/** One value per database and key, made on first use (prepared statements, batchers). */
export function perDb<T>(db: Db, key: string, make: () => T): T {
  let values = perDbValues.get(db);
  if (!values) {
    values = new Map();
    perDbValues.set(db, values);
  }
  let value = values.get(key) as T | undefined;
  if (value === undefined) {
    value = make();
    values.set(key, value);
  }
  return value;
}
