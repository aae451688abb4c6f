// Runs every benchmark file (packages/*/bench/*.bench.ts, apps/*/bench/*.bench.ts) one after another,
// so that figures compared side by side come from one run on one machine.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['packages', 'apps'].flatMap((dir) => readdirSync(dir).map((name) => join(dir, name, 'bench')));
const files = roots
  .filter((dir) => existsSync(dir))
  .flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.bench.ts'))
      .map((f) => join(dir, f)),
  )
  .filter((file) => !process.argv[2] || file.includes(process.argv[2]));

console.log(`node ${process.version}, ${files.length} benchmark file(s)`);
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const run = spawnSync('npx', ['tsx', file], { stdio: 'inherit' });
  if (run.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
