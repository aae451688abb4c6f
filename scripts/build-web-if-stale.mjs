// Builds apps/web when its sources (or the packages it bundles) are newer than the last build, or when the
// last build was made in another mode (React's development runtime is several times the size and slower).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const distDir = 'apps/web/dist';
const builtIndex = join(distDir, 'index.html');
// Written by the build itself (apps/web/build-plugins.ts) with the NODE_ENV it was made under.
const builtMode = join(distDir, '.build-mode');
const sources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/build-plugins.ts',
  'apps/web/chunk-groups.ts',
  'packages/shared/src',
  'packages/engine/src',
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

/** Only an explicit NODE_ENV=development start gets React's development build; everything else ships production. */
export function wantedBuildMode(nodeEnv = process.env.NODE_ENV) {
  return nodeEnv === 'development' ? 'development' : 'production';
}

/** Why the build at `dist` must be redone for `mode`, or undefined when it can be served as it is. */
export function staleReason(mode, paths = { builtIndex, builtMode, sources }) {
  if (!existsSync(paths.builtIndex)) return 'no build yet';
  const recorded = existsSync(paths.builtMode) ? readFileSync(paths.builtMode, 'utf8').trim() : 'unknown';
  if (recorded !== mode) return `the last build is ${recorded}, this start wants ${mode}`;
  const builtAt = statSync(paths.builtIndex).mtimeMs;
  if (builtAt < Math.max(...paths.sources.map(newestMtime))) return 'sources changed since the last build';
  return undefined;
}

export function buildWebIfStale(mode = wantedBuildMode()) {
  const reason = staleReason(mode);
  if (reason === undefined) return;
  console.log(`Building the web app (${mode}: ${reason})…`);
  const build = spawnSync('npm', ['run', 'build', '-w', '@gridbot/web'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: mode },
  });
  if (build.status !== 0) throw new Error('web build failed');
}

if (import.meta.url === `file://${process.argv[1]}`) buildWebIfStale();
