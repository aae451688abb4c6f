import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from './create-db';

const writer = fileURLToPath(new URL('./testing/pglite-writer.ts', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'gridbot-pglite-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs the writer on `dataDir` until it has committed `rows` rows, then SIGKILLs it; answers the last ack. */
function writeThenKill(rows: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = fork(writer, [dataDir], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    let acknowledged = 0;
    child.on('message', (n: number) => {
      acknowledged = n;
      if (n >= rows) child.kill('SIGKILL');
    });
    child.once('error', reject);
    child.once('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve(acknowledged) : reject(new Error(`writer exited before ${rows} rows`)),
    );
  });
}

// The embedded mode (`npm start`) keeps everything in PGlite under DATA_DIR: a process killed without any
// chance to shut down (OOM killer, kill -9, power to the container cut) must lose no committed write.
describe('embedded database (PGlite) killed with SIGKILL', () => {
  it('opens again with every committed row, twice in a row', async () => {
    let committed = 0;
    for (const round of [1, 2]) {
      committed = await writeThenKill(committed + 25);
      const reopened = await createDb({ dataDir });
      try {
        const result = await reopened.db.execute(
          sql`select count(*)::int as n, max(n) as top from durability_probe`,
        );
        const [row] = (result as unknown as { rows: { n: number; top: number }[] }).rows;
        expect(row!.n, `round ${round}`).toBeGreaterThanOrEqual(committed);
        expect(row!.top).toBe(row!.n);
        committed = row!.n;
      } finally {
        await reopened.close();
      }
    }
  }, 120_000);
});
