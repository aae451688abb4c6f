import { type Column, type SQL, sql } from 'drizzle-orm';

/**
 * `column = any(:placeholder)`: the rows of every key of a batch (an array parameter), for the statements of
 * batched reads (`batched-read.ts`). A plain index scan over one table, where a join to the batch's keys as a
 * table let PostgreSQL guess 100 keys and scan all bots; and plain columns, which drizzle maps to rows at a
 * third of the cost of a subquery's.
 */
export function anyOf(column: Column, placeholder: string, pgType: 'uuid' | 'text'): SQL {
  return sql`${column} = any(${sql.placeholder(placeholder)}::${sql.raw(pgType)}[])`;
}
