// Child processes of the server benches: real `src/main.ts` servers (one per role), a private Redis, and the
// bookkeeping that stops them all when a bench ends or fails.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/testing/free-port';
import { startRedisServer } from '../../src/testing/redis-server';

export { freePort };

const serverMain = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const children: ChildProcess[] = [];

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP port nobody listens on now. */

/** Keeps a child to stop at the end (`stopAll`) or kill on a failure (`killAll`). */
export function track<T extends ChildProcess>(child: T): T {
  children.push(child);
  return child;
}

/**
 * Starts `src/main.ts` with `env` over the bench's own environment, in its own process group. BENCH_NODE_ARGS
 * adds node flags; BENCH_PROFILE_DIR lets `profileToggle` profile the measured window (CPU_PROFILE_DIR).
 */
export function startServer(env: Record<string, string>): ChildProcess {
  const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const profile = process.env.BENCH_PROFILE_DIR ? { CPU_PROFILE_DIR: process.env.BENCH_PROFILE_DIR } : {};
  return track(
    spawn(process.execPath, [...extra, '--import', 'tsx', serverMain], {
      env: { ...process.env, ...profile, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true,
    }),
  );
}

/** A private Redis on a free port, nothing kept on disk. */
export async function startRedis(): Promise<string> {
  const port = await freePort();
  track(await startRedisServer(port));
  return `redis://127.0.0.1:${port}`;
}

/** SIGTERM to the child's process group (a graceful shutdown), resolved when it has exited. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-(child.pid as number), 'SIGTERM');
  await exited;
}

/** Stops every tracked child, newest first. */
export async function stopAll(): Promise<void> {
  for (const child of children.reverse()) await stop(child).catch(() => undefined);
  children.length = 0;
}

/** After a failure: SIGKILL whatever still runs, so no server outlives the bench. */
export function killAll(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
}

/** Waits until the server on `port` answers GET /readyz with 200 (a minute at most). */
export async function ready(port: number): Promise<void> {
  for (let i = 0; i < 240; i += 1) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await sleep(250);
  }
  throw new Error(`server on port ${port} not ready after 60 s`);
}

/** With BENCH_PROFILE_DIR: starts (first call) or writes (second call) a CPU profile in each server. */
export function profileToggle(pids: number[]): void {
  if (!process.env.BENCH_PROFILE_DIR) return;
  for (const pid of pids) process.kill(pid, 'SIGUSR2');
}
