import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

/**
 * Profiling a running process (CPU_PROFILE_DIR set): the first SIGUSR2 starts a V8 CPU profile, the next one
 * writes it to the folder as `<role>-<pid>-<time>.cpuprofile` (open it in Chrome DevTools). Unlike
 * `node --cpu-prof` it covers only the moments chosen, e.g. a benchmark's measured window without start-up.
 */
export function profileOnSignal(dir: string, role: string, log: (message: string) => void): void {
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  let running = false;
  let busy = Promise.resolve();
  process.on('SIGUSR2', () => {
    busy = busy.then(async () => {
      if (!running) {
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
        running = true;
        return;
      }
      const { profile } = await session.post('Profiler.stop');
      running = false;
      // The wall time names the file for the operator (sorts by when it was taken); no business time.
      const file = join(dir, `${role}-${process.pid}-${Date.now()}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      log(`CPU profile written to ${file}`);
    });
  });
}
