import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../apps/server/src/testing/free-port';
import { serverNodeArgs } from '../../apps/server/src/testing/server-process';
import { PGLITE_TEMPLATE_ENV } from './pglite-template';

export interface AppServer {
  url: string;
  dataDir: string;
  /** Everything the server printed, for debugging a failed journey. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts the real server (its bundle, `server-process.ts`) on a free port with a fresh data directory. */
export async function startAppServer(env: Record<string, string> = {}): Promise<AppServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'gridbot-e2e-'));
  // The run's migrated database, copied: the server skips initdb and the migrations (pglite-template.ts).
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (template) cpSync(template, join(dataDir, 'pg'), { recursive: true });
  let log = '';
  const child: ChildProcess = spawn(process.execPath, serverNodeArgs('apps/server/src/main.ts'), {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      // The journeys read sign-up codes and reset links from /dev/mailbox.
      DEV_MAILBOX: 'true',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that stop() reaches anything the server started too.
    detached: true,
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const giveUp = (why: string) => {
    // Nothing of a server that never came up outlives the journey: its processes, its data directory.
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // the group is gone already
    }
    rmSync(dataDir, { recursive: true, force: true });
    return new Error(`${why}:\n${log}`);
  };
  // Two minutes: on a machine whose cores are shared with other work a start has taken over a minute.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw giveUp('server exited early');
    if (Date.now() >= deadline) throw giveUp('server did not become healthy within 120 s');
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    dataDir,
    output: () => log,
    async stop() {
      const signalGroup = (signal: NodeJS.Signals) => {
        try {
          process.kill(-(child.pid as number), signal);
        } catch {
          // the group is gone already
        }
      };
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        signalGroup('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      }
      // npx may have exited while tsx's node still shuts down: end whatever is left of the group.
      await new Promise((resolve) => setTimeout(resolve, 500));
      signalGroup('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
