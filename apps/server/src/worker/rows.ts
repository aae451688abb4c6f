/** Rows of many bots, grouped per bot in the order they came (a batch of launches reads them together). */
export function groupByBot<T extends { botId: string }>(rows: readonly T[]): Map<string, T[]> {
  const byBot = new Map<string, T[]>();
  for (const row of rows) {
    const list = byBot.get(row.botId);
    if (list) list.push(row);
    else byBot.set(row.botId, [row]);
  }
  return byBot;
}

/** Rows of a raw statement (node-postgres and PGlite both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
