#!/usr/bin/env node
// Runs every workspace's `typecheck` script, and tsc over e2e/, as many at a time as there are cores: each `tsc -p`
// is a single-threaded process, so one after another they left all cores but one idle. Each command's output is
// printed when it ends, not interleaved; the exit code is non-zero when any of them fails.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const jobsOf = (workspace) => {
  const script = JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8')).scripts?.typecheck;
  return (script ? script.split('&&') : []).map((command) => ({
    cwd: join(root, workspace),
    command: command.trim(),
  }));
};
// The apps and e2e check the most files (with the packages they import): started first, they end no later than
// the small package checks queued behind them.
const jobs = [
  ...workspaces.filter((w) => w.startsWith('apps/')).flatMap(jobsOf),
  { cwd: root, command: 'tsc -p e2e/tsconfig.json' },
  ...workspaces.filter((w) => !w.startsWith('apps/')).flatMap(jobsOf),
];

const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}` };

function run({ cwd, command }) {
  return new Promise((resolve) => {
    const child = spawn(command, { cwd, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      const where = cwd === root ? '.' : cwd.slice(root.length + 1);
      process.stdout.write(`> ${where}: ${command}${code === 0 ? '' : ` (exit ${code})`}\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(code === 0);
    });
  });
}

let next = 0;
let ok = true;
async function lane() {
  while (next < jobs.length) {
    const job = jobs[next];
    next += 1;
    if (!(await run(job))) ok = false;
  }
}
await Promise.all(Array.from({ length: Math.min(availableParallelism(), jobs.length) }, lane));
process.exit(ok ? 0 : 1);
