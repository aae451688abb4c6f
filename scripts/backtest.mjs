// `npm run backtest -- …`: runs the backtest CLI as compiled JavaScript. The CLI and what it imports
// (engine, shared) are bundled with esbuild into packages/engine/dist/backtest.mjs the first time, and
// again whenever a source file is newer than the bundle; then the bundle runs in this process.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = join(root, 'packages/engine/src/cli/backtest.ts');
const out = join(root, 'packages/engine/dist/backtest.mjs');
const sources = [join(root, 'packages/engine/src'), join(root, 'packages/shared/src')];

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Bundles the CLI when the bundle is missing or older than any source. */
export async function buildBacktestCli() {
  const stale = !existsSync(out) || sources.some((dir) => newestSource(dir) > statSync(out).mtimeMs);
  if (!stale) return out;
  const { build } = await import('esbuild');
  await build({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await import(pathToFileURL(await buildBacktestCli()).href);
}
