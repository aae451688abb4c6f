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

// On a fresh machine the sign-up code has to be readable somewhere: the dev outbox is on by default here,
// where the embedded server listens on 127.0.0.1 and answers /dev/mailbox to this machine only. Production
// (NODE_ENV=production) and an explicit DEV_MAILBOX are left as they are.
const env = { ...process.env };
if (env.DEV_MAILBOX === undefined && env.NODE_ENV !== 'production') env.DEV_MAILBOX = 'true';

// Node with tsx's loader (not `npx tsx`, whose own start-up takes a second).
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  stdio: 'inherit',
  env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
