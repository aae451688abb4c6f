// The server as ES modules (esbuild), for the tests that start it as a process again and again: the crash tests
// kill and restart it dozens of times, and each start under tsx compiles and loads some 400 TypeScript modules
// through a loader thread (5–8 s of a two-core host's time) where a bundle loads in a fraction of it. The
// workspace's TypeScript is bundled; the dependencies stay in node_modules, loaded by Node as they are. Each
// module keeps its own `import.meta.url` (the migrations and the web build are found beside their sources), so
// a bundle runs like `node --import tsx <its entry>`.
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Inside the project, so that Node finds node_modules from the bundles. */
export const serverBundleDir = join(root, 'apps/server/dist');
/** The entries the tests start: the server, and the test servers that wrap it. */
const ENTRIES = ['src/main.ts', 'src/testing/crash-server.ts', 'src/testing/outbox-crash-child.ts'];

/** Writes one bundle per entry (a second or two) and answers their folder; a bundle in use is replaced whole. */
export async function buildServerBundles() {
  await mkdir(serverBundleDir, { recursive: true });
  const temp = join(serverBundleDir, `.build-${process.pid}`);
  await build({
    entryPoints: Object.fromEntries(
      ENTRIES.map((entry) => [basename(entry, '.ts'), join(root, 'apps/server', entry)]),
    ),
    outdir: temp,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [workspaceOnly],
  });
  for (const entry of ENTRIES) {
    const name = `${basename(entry, '.ts')}.mjs`;
    await rename(join(temp, name), join(serverBundleDir, name));
    await rename(join(temp, `${name}.map`), join(serverBundleDir, `${name}.map`));
  }
  await rm(temp, { recursive: true, force: true });
  return serverBundleDir;
}

/** Bundles the workspace's sources (relative imports and `@gridbot/*`); every other package stays external. */
const workspaceOnly = {
  name: 'workspace-only',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@gridbot/') ? undefined : { path: args.path, external: true },
    );
    b.onLoad({ filter: /\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: 'ts',
    }));
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await buildServerBundles());
