import { groupBy } from '@gridbot/shared';

/** Rows of many bots, grouped per bot in the order they came (a batch of launches reads them together). */
export function groupByBot<T extends { botId: string }>(rows: readonly T[]): Map<string, T[]> {
  return groupBy(rows, (row) => row.botId);
}

/** Rows of a raw statement (node-postgres and PGlite both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
