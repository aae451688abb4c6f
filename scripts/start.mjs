// `npm start`: builds the web app when its sources are newer than the last build, then runs the server
// in embedded mode (PGlite under ./data, paper exchange, simulated market) unless the environment says otherwise.
import { spawn } from 'node:child_process';
import { buildWebIfStale } from './build-web-if-stale.mjs';

try {
  buildWebIfStale();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

// Node with tsx's loader (not `npx tsx`, whose own start-up takes a second).
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
