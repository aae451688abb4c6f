// What else used the machine while a bench ran, from /proc (Linux): a figure measured while other processes
// took more of the cores than the bench itself says little about the code, so such a run judges no goal.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

/** Processes that serve a bench rather than compete with it: the database and Redis it talks to. */
const SERVICES = new Set(['postgres', 'redis-server']);
const CLOCK_TICK_MS = 10;

/** `{ ppid, comm, cpuMs }` of every live process; cpuMs includes the children it has reaped. */
function processTable() {
  const table = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // Fields after the name: state ppid … utime(11) stime(12) cutime(13) cstime(14).
      const cpuMs = (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * CLOCK_TICK_MS;
      table.set(Number(name), { ppid: Number(f[1]), comm, cpuMs });
    } catch {
      // The process ended while the table was read.
    }
  }
  return table;
}

/** CPU time of the children this process has reaped (with what they reaped): a finished bench's total. */
function reapedChildrenMs() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) * CLOCK_TICK_MS;
}

/** The pids of `root` and every live process below it. */
function treeOf(table, root) {
  const tree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, p] of table) {
      if (!tree.has(pid) && tree.has(p.ppid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return tree;
}

function machineJiffies() {
  const n = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = n[3] + n[4];
  const steal = n[7] ?? 0;
  const total = n.slice(0, 8).reduce((s, v) => s + v, 0);
  return { busy: total - idle - steal, steal, total };
}

/**
 * Who used the cores between `start()` and each `sample()`: the bench's own process tree, the services it
 * uses, the rest of the machine (`others`, which includes a `BENCH_NOISE` process) and the hypervisor's
 * steal, each in cores on average over the window.
 */
export function machineWindow(benchPid) {
  const cpuOf = (table, pids) => [...pids].reduce((s, pid) => s + (table.get(pid)?.cpuMs ?? 0), 0);
  const take = () => {
    const table = processTable();
    const alive = table.has(benchPid);
    const tree = alive ? treeOf(table, benchPid) : new Set();
    const services = [...table]
      .filter(([pid, p]) => !tree.has(pid) && SERVICES.has(p.comm))
      .map(([pid]) => pid);
    return {
      alive,
      bench: cpuOf(table, tree),
      reaped: reapedChildrenMs(),
      services: new Map(services.map((pid) => [pid, table.get(pid).cpuMs])),
      machine: machineJiffies(),
      at: performance.now(),
      load: loadavg()[0],
    };
  };
  const first = take();
  return {
    sample() {
      const now = take();
      const wallMs = Math.max(1, now.at - first.at);
      const cores = (jiffies) =>
        (jiffies / Math.max(1, now.machine.total - first.machine.total)) * cpus().length;
      let services = 0;
      for (const [pid, ms] of now.services) services += ms - (first.services.get(pid) ?? 0);
      // While the bench runs its live tree holds its CPU; once it ended and was reaped, our reaped children do.
      const benchMs = now.alive ? now.bench - first.bench : now.reaped - first.reaped - first.bench;
      const bench = Math.max(0, benchMs) / wallMs;
      const serving = Math.max(0, services) / wallMs;
      const machine = cores(now.machine.busy - first.machine.busy);
      return {
        seconds: wallMs / 1000,
        loadAtStart: first.load,
        loadNow: now.load,
        bench,
        services: serving,
        others: Math.max(0, machine - bench - serving),
        stolen: cores(now.machine.steal - first.machine.steal),
      };
    },
  };
}

/**
 * Whether a window may judge a goal: not when other processes (or the hypervisor's steal) took more of the
 * machine than the bench and the services it uses did.
 */
export function mayJudge(w) {
  return w.others + w.stolen <= w.bench + w.services;
}

export function describeWindow(w) {
  const f = (n) => n.toFixed(2);
  return (
    `machine over ${w.seconds.toFixed(0)} s: load ${f(w.loadAtStart)} → ${f(w.loadNow)}; cores used by the bench ${f(w.bench)}, ` +
    `its database and Redis ${f(w.services)}, other processes ${f(w.others)}, stolen ${f(w.stolen)} (of ${cpus().length})`
  );
}

/** A bench's output line that states a goal, rewritten when the window may not judge it. */
export function judgedLine(line, w) {
  if (!/\bgoal\b/i.test(line) || mayJudge(w)) return line;
  return `${line}  [goal not judged: other processes used ${w.others.toFixed(2)} cores and steal ${w.stolen.toFixed(2)}, the bench ${(w.bench + w.services).toFixed(2)}]`;
}

/**
 * `BENCH_NOISE=0.5`: an unrelated process that keeps one core that busy (busy for that share of every 100 ms),
 * the "another job on the machine" a goal must hold beside. Returns its pid, or undefined.
 */
export function startNoise(share) {
  if (!(share > 0 && share <= 1)) return undefined;
  const busyMs = Math.round(share * 100);
  const code = `setInterval(() => { const end = performance.now() + ${busyMs}; while (performance.now() < end); }, 100);`;
  const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore', detached: true });
  child.unref();
  return child.pid;
}

/** Pause between two probe flushes: light beside a database's own (hundreds a second under the benches). */
const FLUSH_EVERY_MS = 50;
/** A flush this slow holds up every commit that waits for it: the stalls a bench's p99 can be made of. */
export const FLUSH_STALL_MS = 50;

/**
 * How long the disk takes to flush while a bench runs: a child process writes 8 kB to a file in `dir` and
 * `fdatasync`s it every 50 ms, as PostgreSQL flushes its WAL at each commit. Every commit of the bench waits for
 * such a flush, so a disk that now and then stalls for a tenth of a second puts that in the p99 of whatever
 * commits meanwhile, however idle the cores. `stop()` answers the flushes' p50, p99 and max in ms and the
 * stalls (flushes of `FLUSH_STALL_MS` or more).
 */
export function flushProbe(dir) {
  const file = join(dir, `.bench-flush-probe-${process.pid}`);
  const code = `
    const fs = require('node:fs');
    const fd = fs.openSync(${JSON.stringify(file)}, 'w');
    const page = Buffer.alloc(8192, 1);
    const ms = [];
    const timer = setInterval(() => {
      const start = performance.now();
      fs.writeSync(fd, page, 0, page.length, 0);
      fs.fdatasyncSync(fd);
      ms.push(performance.now() - start);
    }, ${FLUSH_EVERY_MS});
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(timer);
      fs.closeSync(fd);
      fs.rmSync(${JSON.stringify(file)}, { force: true });
    };
    process.on('message', () => {
      end();
      process.send(ms, () => process.exit(0));
    });
    // The runner ended without asking (interrupted): nothing to answer, nothing left behind.
    process.on('disconnect', () => {
      end();
      process.exit(0);
    });`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return {
    stop: () =>
      new Promise((resolve) => {
        child.once('message', (ms) => resolve(flushStats(ms)));
        child.once('exit', () => resolve(flushStats([])));
        child.send('stop');
      }),
  };
}

/** p50, p99, max and the stalls of the probe's flush times (ms). */
export function flushStats(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
  return {
    flushes: sorted.length,
    p50: at(0.5),
    p99: at(0.99),
    max: sorted.at(-1) ?? 0,
    stalls: sorted.filter((v) => v >= FLUSH_STALL_MS).length,
  };
}

export function describeFlushes(f) {
  if (f.flushes === 0) return 'disk flushes: not measured';
  const ms = (v) => `${v.toFixed(v < 10 ? 2 : 0)} ms`;
  return (
    `disk flushes (8 kB fdatasync every ${FLUSH_EVERY_MS} ms, ${f.flushes}): p50 ${ms(f.p50)}, p99 ${ms(f.p99)}, ` +
    `max ${ms(f.max)}; ${f.stalls} of ${FLUSH_STALL_MS} ms or more, each holding up every commit meanwhile`
  );
}
