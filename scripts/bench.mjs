// Runs every benchmark file (packages/*/bench/*.bench.ts, apps/*/bench/*.bench.ts) one after another,
// so that figures compared side by side come from one run on one machine.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';

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

console.log(`node ${process.version}, ${files.length} benchmark file(s)`);
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const run = spawnSync('npx', ['tsx', file], { stdio: 'inherit' });
  if (run.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
