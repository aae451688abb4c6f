// The JavaScript a route of the built web app loads before it can be used, compressed as the server sends it
// (brotli, from the .br files the build writes). Read from Vite's manifest (apps/web/dist/.vite/manifest.json).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

export const WEB_DIST = 'apps/web/dist';
/** The budget of the login route (and of sign-up and reset), in KiB as Lighthouse counts them: infrequently.org puts a whole interactive page at 130–170 KB. */
export const LOGIN_BUDGET_BYTES = 120 * 1024;

/** Route modules as the router loads them (apps/web/src/app/router.tsx). */
export const ROUTE_MODULES = {
  login: ['src/app/routes/login.tsx'],
  signup: ['src/app/routes/signup.tsx'],
  resetpassword: ['src/app/routes/reset-password.tsx'],
  dashboard: ['src/app/layouts/guarded-layout.tsx', 'src/app/routes/dashboard.tsx'],
  'running-bot': ['src/app/layouts/guarded-layout.tsx', 'src/app/routes/running-bot.tsx'],
};

function compressedSize(file) {
  if (existsSync(`${file}.br`)) return statSync(`${file}.br`).size;
  const raw = readFileSync(file);
  return brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
}

/** Every chunk one of `keys` loads up front: itself and its static imports, transitively (not dynamic ones). */
function staticClosure(manifest, keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return [...seen].map((key) => manifest[key].file).filter((file) => file.endsWith('.js'));
}

/** The source modules bundled into a built file, from its source map (paths relative to apps/web). */
function modulesOf(file) {
  const map = `${file}.map`;
  if (!existsSync(map)) return [];
  return JSON.parse(readFileSync(map, 'utf8')).sources.map((source) => source.replace(/^(\.\.\/)+/, ''));
}

/** { files, modules, rawBytes, compressedBytes } of the JavaScript each route loads, keyed by route name. */
export function routeScriptSizes(dist = WEB_DIST, routes = ROUTE_MODULES) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  return Object.fromEntries(
    Object.entries(routes).map(([name, routeModules]) => {
      const files = staticClosure(manifest, ['index.html', ...routeModules]).sort();
      const rawBytes = files.reduce((sum, file) => sum + statSync(join(dist, file)).size, 0);
      const compressedBytes = files.reduce((sum, file) => sum + compressedSize(join(dist, file)), 0);
      const modules = files.flatMap((file) => modulesOf(join(dist, file)));
      return [name, { files, modules, rawBytes, compressedBytes }];
    }),
  );
}
