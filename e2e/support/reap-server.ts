import { readdirSync, readFileSync } from 'node:fs';
import type { AppServer } from './app-server';

/**
 * The processes of one app server: those whose environment holds its DATA_DIR (a fresh mkdtemp directory,
 * so nothing else matches). Linux only; elsewhere none are found.
 */
function serverPids(server: AppServer): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const marker = `DATA_DIR=${server.dataDir}`;
  return entries.flatMap((name) => {
    try {
      const environ = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      return environ.includes(marker) && Number(name) !== process.pid ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

/**
 * startAppServer() spawns `npx tsx …`; its stop() signals npx, which exits without passing the signal on, so
 * the tsx server (≈600 MB) lives on as an orphan. This ends every process of the server first (SIGTERM, then
 * SIGKILL after 5 s); call it before `server.stop()`.
 */
export async function reapServer(server: AppServer): Promise<void> {
  const signal = (pids: number[], name: NodeJS.Signals) => {
    for (const pid of pids) {
      try {
        process.kill(pid, name);
      } catch {
        // already gone
      }
    }
  };
  signal(serverPids(server), 'SIGTERM');
  const deadline = Date.now() + 5000;
  while (serverPids(server).length > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  signal(serverPids(server), 'SIGKILL');
}
