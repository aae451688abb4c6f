import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The file beside the build that says which React runtime it carries; the start script compares it. */
export const BUILD_MODE_FILE = '.build-mode';

/** Text files worth compressing; source maps are left alone (only developer tools fetch them). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this a compressed copy saves less than the headers it costs. */
const MIN_BYTES = 1024;

/**
 * The pages a visit opens on, by the first segment of their path (`index` for `/`, the login page), with the
 * route modules the router loads for them (src/app/router.tsx). Each gets its own copy of index.html,
 * `routes/<segment>.html`, that names those modules' chunks as `modulepreload` links; the server sends it for
 * that path (apps/server plugins/web-delivery.ts). Without it the browser learns of them only once the entry has
 * loaded and run: one more round trip before the first paint, half a second on a mobile network.
 */
export const ROUTE_PAGES: Record<string, string[]> = {
  index: ['src/app/routes/login.tsx'],
  dashboard: ['src/app/layouts/guarded-layout.tsx', 'src/app/routes/dashboard.tsx'],
  'running-bot': ['src/app/layouts/guarded-layout.tsx', 'src/app/routes/running-bot.tsx'],
  'scalp-running-bot': ['src/app/layouts/guarded-layout.tsx', 'src/app/routes/scalp-running-bot.tsx'],
};
export const ROUTE_PAGES_DIR = 'routes';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? filesUnder(join(dir, entry.name)) : Promise.resolve([join(dir, entry.name)]),
    ),
  );
  return nested.flat();
}

type Manifest = Record<string, { file: string; imports?: string[] }>;

/** The JavaScript files `keys` load up front: their chunks and those chunks' static imports, transitively. */
function staticChunks(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return new Set([...seen].map((key) => (manifest[key] as { file: string }).file));
}

/** Writes the route pages of ROUTE_PAGES from the built index.html and manifest. */
async function writeRoutePages(outDir: string, base: string): Promise<void> {
  const manifest = JSON.parse(await readFile(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const indexHtml = await readFile(join(outDir, 'index.html'), 'utf8');
  const inIndex = staticChunks(manifest, ['index.html']);
  await mkdir(join(outDir, ROUTE_PAGES_DIR), { recursive: true });
  await Promise.all(
    Object.entries(ROUTE_PAGES).map(async ([segment, modules]) => {
      const links = [...staticChunks(manifest, modules)]
        .filter((file) => file.endsWith('.js') && !inIndex.has(file))
        .map((file) => `\n    <link rel="modulepreload" crossorigin href="${base}${file}">`)
        .join('');
      const page = indexHtml.replace(/\n(\s*)<\/head>/, (_, indent: string) => `${links}\n${indent}</head>`);
      await writeFile(join(outDir, ROUTE_PAGES_DIR, `${segment}.html`), page);
    }),
  );
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text asset, at the strongest settings: compressed once at
 * build, served by the server as they are (no per-request CPU), and smaller than on-the-fly compression.
 * Before that it writes the route pages (ROUTE_PAGES).
 */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'gridbot:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async writeBundle() {
      const outDir = join(config.root, config.build.outDir);
      // First, so that the route pages are compressed with the rest.
      if (config.build.manifest) await writeRoutePages(outDir, config.base);
      const files = (await filesUnder(outDir)).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          if ((await stat(file)).size < MIN_BYTES) return;
          const raw = await readFile(file);
          const [br, gz] = await Promise.all([
            brotli(raw, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            }),
            gzipAsync(raw, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          if (br.length < raw.length) await writeFile(`${file}.br`, br);
          if (gz.length < raw.length) await writeFile(`${file}.gz`, gz);
        }),
      );
      // React's runtime follows process.env.NODE_ENV at build time: record it so a production start never
      // serves a development build left behind by an earlier start.
      await writeFile(join(outDir, BUILD_MODE_FILE), config.isProduction ? 'production\n' : 'development\n');
    },
  };
}
