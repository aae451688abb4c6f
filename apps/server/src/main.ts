import { fileURLToPath } from 'node:url';
import { parseEnv } from './config/env';
import { profileOnSignal } from './ops/cpu-profile-signal';
import { runAll } from './roles/run-all';
import { runApi } from './roles/run-api';
import { runMarket } from './roles/run-market';
import { runWorker } from './roles/run-worker';

const webDistDir = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Parses the environment and starts the process's role (docs/architecture.md §1). */
async function main() {
  const env = parseEnv(process.env);
  if (env.CPU_PROFILE_DIR) profileOnSignal(env.CPU_PROFILE_DIR, env.ROLE, (line) => console.error(line));
  switch (env.ROLE) {
    case 'all':
      return runAll(env, webDistDir);
    case 'api':
      return runApi(env, webDistDir);
    case 'worker':
      return runWorker(env);
    case 'market':
      return runMarket(env);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
