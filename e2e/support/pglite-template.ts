import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '@gridbot/db';

/** The environment variable that names the template to the journeys' workers. */
export const PGLITE_TEMPLATE_ENV = 'GRIDBOT_E2E_PGLITE_TEMPLATE';

/**
 * A migrated embedded database (the `pg` folder of a DATA_DIR), made once per run: each journey's server starts
 * on a copy of it instead of running initdb and every migration on a fresh folder, which costs several seconds of
 * CPU per journey on two cores that the journeys share. The server finds its database migrated, as after any
 * earlier start, and seeds the demo as on a fresh install. Answers the teardown that removes it.
 */
export async function makePgliteTemplate(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'gridbot-e2e-template-'));
  const handle = await createDb({ dataDir: join(dir, 'pg') });
  await handle.close();
  process.env[PGLITE_TEMPLATE_ENV] = join(dir, 'pg');
  return () => rmSync(dir, { recursive: true, force: true });
}
