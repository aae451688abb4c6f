// Runs every benchmark file (packages/*/bench/*.bench.ts, apps/*/bench/*.bench.ts) one after another,
// so that figures compared side by side come from one run on one machine. Each bench's window is watched
// (scripts/bench-machine.mjs): the runner prints who used the cores and how long the disk took to flush, and a
// line stating a goal is marked not judged when other processes took more of the machine than the bench.
// BENCH_NOISE=0.5 runs an unrelated process keeping one core half busy beside every bench.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  describeFlushes,
  describeWindow,
  flushProbe,
  judgedLine,
  machineWindow,
  mayJudge,
  startNoise,
} from './bench-machine.mjs';

const roots = ['packages', 'apps'].flatMap((dir) => readdirSync(dir).map((name) => join(dir, name, 'bench')));
const all = roots
  .filter((dir) => existsSync(dir))
  .flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.bench.ts'))
      .map((f) => join(dir, f)),
  );
// A bench's exact name runs that bench alone (`web` is not also `backtest-web`); any other word runs every
// bench whose path holds it.
const wanted = process.argv[2];
const named = all.filter((file) => basename(file, '.bench.ts') === wanted);
const files = !wanted ? all : named.length > 0 ? named : all.filter((file) => file.includes(wanted));

const noiseShare = Number(process.env.BENCH_NOISE ?? 0);
const noisePid = startNoise(noiseShare);
const stopNoise = () => {
  if (noisePid !== undefined) {
    try {
      process.kill(noisePid);
    } catch {
      // Already gone.
    }
  }
};
process.on('exit', stopNoise);
process.on('SIGINT', () => process.exit(130));

/** Runs one bench, passing its output through and marking goal lines its window may not judge. */
function runBench(file) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['tsx', file], { stdio: ['inherit', 'pipe', 'inherit'] });
    const window = machineWindow(child.pid);
    // In the repository's directory, on the disk the checkout (and here the database) lives on; /tmp may be
    // memory. BENCH_FLUSH_DIR: the database's own disk when it has another.
    const flushes = flushProbe(process.env.BENCH_FLUSH_DIR ?? process.cwd());
    createInterface({ input: child.stdout }).on('line', (line) => {
      console.log(/\bgoal\b/i.test(line) ? judgedLine(line, window.sample()) : line);
    });
    child.on('close', async (status) => {
      const w = window.sample();
      console.log(`\n${describeWindow(w)}`);
      console.log(describeFlushes(await flushes.stop()));
      if (!mayJudge(w)) console.log('The machine was busier than the bench: no goal of this run is judged.');
      resolve(status);
    });
  });
}

console.log(
  `node ${process.version}, ${files.length} benchmark file(s)` +
    (noisePid !== undefined
      ? `, with a process keeping one core ${noiseShare * 100} % busy (BENCH_NOISE)`
      : ''),
);
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  if ((await runBench(file)) !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
