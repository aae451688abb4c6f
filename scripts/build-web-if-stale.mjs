// Builds apps/web when its sources (or the packages it bundles) are newer than the last build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const builtIndex = 'apps/web/dist/index.html';
const sources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'packages/shared/src',
  'packages/engine/src',
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

export function buildWebIfStale() {
  const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
  if (builtAt >= Math.max(...sources.map(newestMtime))) return;
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@gridbot/web'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('web build failed');
}

if (import.meta.url === `file://${process.argv[1]}`) buildWebIfStale();
