// CPU time of the processes a bench runs, from /proc (Linux), so that its figures say where the cores went.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** CPU time (ms) of one process; 0 when it is gone. */
function cpuMsOfPid(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** The PostgreSQL backends serving one database (their process title names it). */
function postgresPids(database: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(` ${database} `);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * Busy, stolen and total jiffies of the whole machine. Steal is time the hypervisor gave this virtual
 * machine's cores to others: not busy here, but not available to the bench either.
 */
function machineTicks() {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const n = values.map(Number);
  const idle = (n[3] ?? 0) + (n[4] ?? 0);
  const steal = n[7] ?? 0;
  // The guest fields (8, 9) are already counted in user and nice.
  const total = n.slice(0, 8).reduce((s, v) => s + v, 0);
  return { busy: total - idle - steal, steal, total };
}

/** Cores busy, on average, between two samples. */
export interface CoresBusy {
  /** Per named group of processes. */
  groups: Record<string, number>;
  /** The database's backends (a backend that ended between the samples is not counted). */
  postgres: number;
  /** Everything on the machine, of `cpus().length`. */
  machine: number;
  /** Cores taken by the hypervisor (steal): a figure measured with much of it is not comparable. */
  stolen: number;
}

/** Samples CPU time of named process groups and of `database`'s PostgreSQL backends; `stop()` gives cores busy. */
export function cpuMeter(groups: Record<string, () => number[]>, database: string) {
  const take = () => ({
    groups: Object.fromEntries(
      Object.entries(groups).map(([name, pids]) => [name, pids().reduce((s, pid) => s + cpuMsOfPid(pid), 0)]),
    ),
    postgres: new Map(postgresPids(database).map((pid) => [pid, cpuMsOfPid(pid)])),
    machine: machineTicks(),
    at: performance.now(),
  });
  const before = take();
  return {
    stop(): CoresBusy {
      const after = take();
      const wallMs = after.at - before.at;
      const share = (ticks: number) =>
        (ticks / Math.max(1, after.machine.total - before.machine.total)) * cpus().length;
      let postgres = 0;
      for (const [pid, ms] of after.postgres) postgres += ms - (before.postgres.get(pid) ?? 0);
      return {
        groups: Object.fromEntries(
          Object.entries(after.groups).map(([name, ms]) => [
            name,
            (ms - (before.groups[name] ?? 0)) / wallMs,
          ]),
        ),
        postgres: postgres / wallMs,
        machine: share(after.machine.busy - before.machine.busy),
        stolen: share(after.machine.steal - before.machine.steal),
      };
    },
  };
}
