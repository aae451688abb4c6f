/**
 * The import graph of `apps/server/src` and the structure rules of docs/architecture.md §2 that a linter cannot
 * state: no import cycle between files or between folders (a module under `modules/` counts as a folder of its
 * own), and a module's files are reached from outside it only through its `index.ts`. Only value imports count:
 * `import type` leaves nothing behind at run time, so it cannot tie two folders together.
 * Files are read and resolved by dependency-cruiser; tests and `testing/` helpers are left out.
 */
import { cruise } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

export interface Edge {
  from: string;
  to: string;
}

export interface Violation {
  rule: 'file-cycle' | 'folder-cycle' | 'public-face';
  /** The imports that make it: the cycle's edges, or the one import that passes a module's face by. */
  edges: Edge[];
}

const TEST_FILES = String.raw`\.test\.ts$|/testing/`;

/** Every value import between two files of `apps/server/src`, paths relative to it (`modules/bots/x.ts`). */
export async function serverImports(serverDir: string): Promise<Edge[]> {
  const cwd = process.cwd();
  process.chdir(serverDir);
  try {
    const result = await cruise(
      ['src'],
      {
        exclude: { path: TEST_FILES },
        doNotFollow: { path: 'node_modules|packages' },
        tsPreCompilationDeps: false,
        tsConfig: { fileName: 'tsconfig.json' },
      },
      {},
      { tsConfig: extractTSConfig('tsconfig.json') },
    );
    if (typeof result.output === 'string') throw new Error('dependency-cruiser answered text, not a graph');
    const inSrc = (path: string) => path.startsWith('src/');
    return result.output.modules
      .filter((m) => inSrc(m.source))
      .flatMap((m) =>
        m.dependencies
          .filter((d) => inSrc(d.resolved))
          .map((d) => ({ from: m.source.slice(4), to: d.resolved.slice(4) })),
      );
  } finally {
    process.chdir(cwd);
  }
}

/** The folder a file belongs to for the cycle rule: `modules/<name>` for a module, else its top folder. */
export function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'modules' && parts.length > 2) return `modules/${parts[1]}`;
  return parts.length > 1 ? (parts[0] as string) : '.';
}

/** The module a file belongs to, if it lies under `modules/`. */
const moduleOf = (file: string) => (file.startsWith('modules/') ? file.split('/')[1] : undefined);

/** Strongly connected groups of more than one node (Tarjan), each with the edges inside it. */
function cycles(edges: readonly Edge[]): Edge[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from)?.push(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group);
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return groups.map((group) => edges.filter((e) => group.includes(e.from) && group.includes(e.to)));
}

/** Every broken structure rule of the graph; empty when the server keeps them all. */
export function structureViolations(imports: readonly Edge[]): Violation[] {
  const violations: Violation[] = cycles(imports).map((edges) => ({ rule: 'file-cycle' as const, edges }));
  // Folder cycles are found on folder edges; each is reported with the file imports that make it.
  const crossing = imports.filter((e) => folderOf(e.from) !== folderOf(e.to));
  const folderEdges = crossing.map((e) => ({ from: folderOf(e.from), to: folderOf(e.to) }));
  for (const group of cycles(folderEdges)) {
    const folders = new Set(group.flatMap((e) => [e.from, e.to]));
    const edges = crossing.filter((e) => folders.has(folderOf(e.from)) && folders.has(folderOf(e.to)));
    violations.push({ rule: 'folder-cycle', edges });
  }
  for (const edge of imports) {
    const target = moduleOf(edge.to);
    if (!target || moduleOf(edge.from) === target) continue;
    if (edge.to !== `modules/${target}/index.ts`) violations.push({ rule: 'public-face', edges: [edge] });
  }
  return violations;
}
