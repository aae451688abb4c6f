import { join } from 'node:path';
import type { Rolldown } from 'vite';

/** Rolldown's view of a module during chunking: only what the grouping below reads. */
interface GraphModule {
  importedIds: readonly string[];
  code: string | null;
}
type GetModuleInfo = (id: string) => GraphModule | null;

const source = (file: string) => join(import.meta.dirname, 'src', file);
/**
 * The shared package's index re-exports every module of it (zod schemas included): an import of it says nothing
 * about which of them a chunk uses, so the closures below stop there, and Rolldown places what is used.
 */
const SHARED_INDEX = join(import.meta.dirname, '../../packages/shared/src/index.ts');
/**
 * The app's icons re-export one lucide module each. Through it, a closure follows only the icons a module
 * names in its import (an icon the login page draws must not join the shell).
 */
const ICONS = source('components/ui/icons.tsx');
const NAMED_IMPORT = /import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;
const ICON_EXPORT = /export\s*\{\s*default as (\w+)\s*\}\s*from\s*["']lucide-react\/icons\/([\w-]+)["']/g;

/** The icon modules that `importer` names from the icons module. */
function iconsNamedBy(getModuleInfo: GetModuleInfo, importer: string): string[] {
  const icons = getModuleInfo(ICONS);
  const iconFiles = new Map(
    [...(icons?.code ?? '').matchAll(ICON_EXPORT)].map(([, name, file]) => [
      name as string,
      `/icons/${file}.`,
    ]),
  );
  const named = [...(getModuleInfo(importer)?.code ?? '').matchAll(NAMED_IMPORT)]
    .filter(([, , from]) => /(^|\/)icons$/.test(from as string))
    .flatMap(([, names]) => (names as string).split(',').map((name) => name.trim().split(/\s+as\s+/)[0]));
  return named.flatMap((name) => {
    const file = iconFiles.get(name ?? '');
    const id = file && icons?.importedIds.find((imported) => imported.includes(file));
    return id ? [id] : [];
  });
}
/** The API's path constants (packages/shared, `*.paths.ts`): a few bytes each, wanted by nearly every screen. */
const SHARED_PATHS = /[\\/]packages[\\/]shared[\\/]src[\\/].*\.paths\.ts$/;

/** The public routes whose JavaScript has a budget (scripts/web-budget.mjs): nothing of the signed-in pages joins them. */
const PUBLIC_ROUTES = ['app/routes/login.tsx', 'app/routes/signup.tsx', 'app/routes/reset-password.tsx'];
const ENTRY = 'main.tsx';
const SHELL = 'app/layouts/guarded-layout.tsx';
const DASHBOARD = 'app/routes/dashboard.tsx';
const RUNNING_BOT = 'app/routes/running-bot.tsx';

/** A module and everything it imports statically, transitively (dynamic imports are other chunks' business). */
function staticClosure(getModuleInfo: GetModuleInfo, from: string): Set<string> {
  const seen = new Set<string>();
  const stack = [source(from)];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    for (const imported of getModuleInfo(id)?.importedIds ?? []) {
      if (imported === ICONS) stack.push(...iconsNamedBy(getModuleInfo, id));
      else if (imported !== SHARED_INDEX) stack.push(imported);
    }
  }
  return seen;
}

const intersect = (sets: Set<string>[]) =>
  new Set([...(sets[0] ?? [])].filter((id) => sets.every((set) => set.has(id))));

/**
 * Which chunk a module of the signed-in pages goes to, or null to leave it to Rolldown's own splitting.
 *
 * Left alone, Rolldown splits the shell and the dashboard into about 45 files of 0.1–9 KiB (one per set of
 * routes sharing a module), and the browser's six connections per host fetch them in several round trips, each
 * 150 ms on a mobile network (docs/benchmarks.md, Web). Here they are four files:
 * - `public-shared`: what every budgeted public route and the signed-in pages both load (React's JSX runtime,
 *   the mutation hook, the auth paths): no public route loads more than before;
 * - `shell`: the signed-in shell with what the dashboard and the running-bot page share (cards, skeletons);
 * - `dashboard` and `running-bot`: each page's own code.
 * The entry's own imports stay where Rolldown puts them. Every group holds its modules' static imports or finds
 * them in an earlier group or the entry, so chunks import each other one way only.
 */
function createGrouping() {
  let groupOf: Map<string, string> | undefined;
  const build = (getModuleInfo: GetModuleInfo) => {
    const closure = (file: string) => staticClosure(getModuleInfo, file);
    const entry = closure(ENTRY);
    const publicRoutes = PUBLIC_ROUTES.map(closure);
    const [shell, dashboard, runningBot] = [SHELL, DASHBOARD, RUNNING_BOT].map(closure) as [
      Set<string>,
      Set<string>,
      Set<string>,
    ];
    const groups = new Map<string, string>();
    // The route modules themselves keep chunks of their own: the router and the manifest name them by file.
    const routeRoots = new Set([SHELL, DASHBOARD, RUNNING_BOT].map(source));
    const assign = (name: string, ids: Iterable<string>) => {
      for (const id of ids) if (!routeRoots.has(id) && !groups.has(id)) groups.set(id, name);
    };
    // The entry's imports in the entry's chunk; otherwise Rolldown splits those that a route shares with it
    // (React, the JSX runtime, the query hooks) into chunks of their own.
    assign('index', entry);
    const signedIn = new Set([...shell, ...dashboard, ...runningBot]);
    assign(
      'public-shared',
      [...intersect(publicRoutes)].filter((id) => signedIn.has(id)),
    );
    const inAnyPublicRoute = (id: string) => publicRoutes.some((route) => route.has(id));
    const signedInOnly = (ids: Iterable<string>) => [...ids].filter((id) => !inAnyPublicRoute(id));
    assign('shell', signedInOnly(shell));
    assign('shell', signedInOnly(intersect([dashboard, runningBot])));
    assign('dashboard', signedInOnly(dashboard));
    assign('running-bot', signedInOnly(runningBot));
    return groups;
  };
  return (id: string, ctx: { getModuleInfo: GetModuleInfo }) => {
    // With the entry's imports: the public routes load two of them already; one file instead of six.
    if (SHARED_PATHS.test(id)) return 'index';
    groupOf ??= build((moduleId) => ctx.getModuleInfo(moduleId));
    return groupOf.get(id) ?? null;
  };
}

/** The code-splitting groups of the production build (vite.config.ts). */
export function signedInChunkGroups(): Rolldown.CodeSplittingGroup[] {
  return [
    {
      name: createGrouping(),
      debugName: 'signed-in pages',
      // The groups above are closed under static imports already; pulling in dependencies would move the
      // entry's modules (React) out of it.
      includeDependenciesRecursively: false,
    },
  ];
}
