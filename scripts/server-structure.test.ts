/**
 * The server's structure rules (docs/architecture.md §2, checked in `server-graph.ts`) hold on the code, and
 * each of them catches a probe that breaks it: probe files are written into `apps/server/src`, the graph is
 * read once with them, and each probe must come out as a violation of its rule. The probes are removed
 * whatever happens.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Edge, serverImports, structureViolations, type Violation } from './server-graph';

const SERVER = fileURLToPath(new URL('../apps/server', import.meta.url));
const tag = `structure-probe-${process.pid}`;

interface Probe {
  name: string;
  rule: Violation['rule'];
  /** Files to write, relative to apps/server/src; the first is the one the violation must name. */
  files: Array<[path: string, source: string]>;
}

const importing = (what: string, from: string) =>
  `import { ${what} } from '${from}';\n\nexport const probe = ${what};\n`;

const PROBES: Probe[] = [
  {
    name: 'two files that import each other',
    rule: 'file-cycle',
    files: [
      [`lib/${tag}-a.ts`, importing('b', `./${tag}-b`).replace('probe = b', 'a = 1;\nexport const c = b')],
      [`lib/${tag}-b.ts`, importing('a', `./${tag}-a`).replace('probe = a', 'b = 2;\nexport const c = a')],
    ],
  },
  {
    name: 'a lower module that imports a higher one (credit → bots, while bots → credit)',
    rule: 'folder-cycle',
    files: [[`modules/credit/${tag}.ts`, importing('startBot', '../bots')]],
  },
  {
    name: 'a library piece that imports a module (lib → identity, while identity → lib)',
    rule: 'folder-cycle',
    files: [[`lib/${tag}-face.ts`, importing('isAdmin', '../modules/identity')]],
  },
  {
    name: "a module that reaches past another module's face",
    rule: 'public-face',
    files: [[`modules/wallet/${tag}.ts`, importing('findUserBot', '../bots/bots.repo')]],
  },
  {
    name: "the worker reaching past a module's face",
    rule: 'public-face',
    files: [[`worker/${tag}.ts`, importing('startBot', '../modules/bots/start-bot.service')]],
  },
];

const paths = PROBES.flatMap((p) => p.files.map(([path]) => join(SERVER, 'src', path)));
let violations: Violation[] = [];
let plain: Violation[] = [];

beforeAll(async () => {
  try {
    for (const probe of PROBES)
      for (const [path, source] of probe.files) writeFileSync(join(SERVER, 'src', path), source);
    violations = structureViolations(await serverImports(SERVER));
  } finally {
    for (const path of paths) rmSync(path, { force: true });
  }
  plain = structureViolations(await serverImports(SERVER));
}, 60_000);

afterAll(() => {
  for (const path of paths) rmSync(path, { force: true });
});

const touches = (edges: Edge[], file: string) => edges.some((e) => e.from === file || e.to === file);
const describeEdges = (v: Violation) => `${v.rule}: ${v.edges.map((e) => `${e.from} → ${e.to}`).join(', ')}`;

describe('server structure', () => {
  it('keeps every rule: no file or folder cycle, modules reached through their index.ts', () => {
    expect(plain.map(describeEdges)).toEqual([]);
  });

  it.each(PROBES.map((p, i) => [p.name, i] as const))('catches %s', (_name, i) => {
    const probe = PROBES[i] as Probe;
    const file = probe.files[0]?.[0] as string;
    const caught = violations.filter((v) => v.rule === probe.rule && touches(v.edges, file));
    expect(caught.map(describeEdges)).not.toEqual([]);
  });
});
