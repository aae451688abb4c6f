/**
 * The dependency rules of docs/architecture.md §2 are Biome rules (`biome.json`, `apps/web/biome.json`), and
 * `npm test` runs Biome first. This proves the rules bite: probe files with a forbidden import (or a banned global in the engine)
 * are written into each package, linted in one Biome run, and must each get the rule's diagnostic, while a
 * probe with only allowed imports gets none. The probes are removed whatever happens.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIOME = join(ROOT, 'node_modules/@biomejs/biome/bin/biome');

interface Probe {
  name: string;
  dir: string;
  source: string;
  /** The Biome rule expected to fire, or undefined when the probe is allowed. */
  rule?: 'noRestrictedImports' | 'noRestrictedGlobals';
  /** The probe file's kind where a rule depends on it: `routes` → `….routes.ts`. */
  kind?: 'routes' | 'service' | 'repo';
}

/** A folder no feature has yet, made for the probes three folders deep and removed with them. */
const NESTED = `dependency-probe-${process.pid}`;

const importing = (what: string, from: string) =>
  `import { ${what} } from '${from}';\n\nexport const probe = ${what};\n`;

const PROBES: Probe[] = [
  {
    name: 'engine imports the exchange',
    dir: 'packages/engine/src',
    source: importing('PaperExchange', '@gridbot/exchange'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'engine imports the database',
    dir: 'packages/engine/src',
    source: importing('bots', '@gridbot/db'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'engine reads the clock',
    dir: 'packages/engine/src',
    source: 'export const probe = Date.now();\n',
    rule: 'noRestrictedGlobals',
  },
  {
    name: 'shared imports the engine',
    dir: 'packages/shared/src',
    source: importing('step', '@gridbot/engine'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'db imports the engine',
    dir: 'packages/db/src',
    source: importing('step', '@gridbot/engine'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'exchange imports the database',
    dir: 'packages/exchange/src',
    source: importing('bots', '@gridbot/db'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'web imports the database',
    dir: 'apps/web/src',
    source: importing('bots', '@gridbot/db'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'web imports the exchange',
    dir: 'apps/web/src',
    source: importing('PaperExchange', '@gridbot/exchange'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'engine imports from Node',
    dir: 'packages/engine/src',
    source: importing('readFileSync', 'node:fs'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'a web feature imports another feature',
    dir: 'apps/web/src/features/bots/components',
    source: importing('useWallet', '../../wallet/api/wallet'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'a web feature climbs out of features/ into another feature',
    dir: 'apps/web/src/features/bots/components',
    source: importing('useWallet', '../../../features/wallet/api/wallet'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'a file at the top of a web feature imports another feature',
    dir: 'apps/web/src/features/bots',
    source: importing('useWallet', '../wallet/api/wallet'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'a file three folders into a web feature imports another feature',
    dir: `apps/web/src/features/bots/components/${NESTED}`,
    source: importing('useWallet', '../../../wallet/api/wallet'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'a file at the top of a web feature imports a shared component (allowed)',
    dir: 'apps/web/src/features/bots',
    source: importing('Button', '../../components/ui/button'),
  },
  {
    name: 'a web feature imports its own api (allowed)',
    dir: 'apps/web/src/features/bots/components',
    source: importing('useBots', '../api/bots'),
  },
  {
    name: 'a file three folders into a web feature imports its own api (allowed)',
    dir: `apps/web/src/features/bots/components/${NESTED}`,
    source: importing('useBots', '../../api/bots'),
  },
  {
    name: 'a file three folders into a web feature imports lib (allowed)',
    dir: `apps/web/src/features/bots/components/${NESTED}`,
    source: importing('toast', '../../../../lib/toast'),
  },
  {
    name: 'a web feature raises a toast through sonner',
    dir: 'apps/web/src/features/bots/components',
    source: importing('toast', 'sonner'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'a shared web component raises a toast through sonner',
    dir: 'apps/web/src/components/ui',
    source: importing('toast', 'sonner'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'a web feature raises a toast through lib/toast (allowed)',
    dir: 'apps/web/src/features/bots/components',
    source: importing('toast', '../../../lib/toast'),
  },
  {
    name: 'a server route queries with Drizzle',
    dir: 'apps/server/src/modules/bots',
    kind: 'routes',
    source: importing('eq', 'drizzle-orm'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'a server service queries with Drizzle',
    dir: 'apps/server/src/modules/platform',
    kind: 'service',
    source: importing('eq', 'drizzle-orm'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'a plain module file queries with Drizzle',
    dir: 'apps/server/src/modules/bots',
    source: importing('eq', 'drizzle-orm'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'a worker file queries with Drizzle',
    dir: 'apps/server/src/worker',
    source: importing('sql', 'drizzle-orm'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'a server file builds SQL from a drizzle-orm subpath',
    dir: 'apps/server/src/lib',
    source: importing('alias', 'drizzle-orm/pg-core'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'a module imports the worker',
    dir: 'apps/server/src/modules/bots',
    source: importing('saveFill', '../../worker/bot.repo'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'a module repo imports the worker',
    dir: 'apps/server/src/modules/bots',
    kind: 'repo',
    source: importing('saveFill', '../../worker/bot.repo'),
    rule: 'noRestrictedImports',
  },
  {
    name: 'a repo queries with Drizzle (allowed)',
    dir: 'apps/server/src/modules/bots',
    kind: 'repo',
    source: importing('eq', 'drizzle-orm'),
  },
  {
    name: 'a worker repo queries with Drizzle (allowed)',
    dir: 'apps/server/src/worker',
    kind: 'repo',
    source: importing('sql', 'drizzle-orm'),
  },
  {
    name: 'a server test helper queries with Drizzle (allowed)',
    dir: 'apps/server/src/testing',
    source: importing('eq', 'drizzle-orm'),
  },
  {
    name: 'the worker uses a module (allowed)',
    dir: 'apps/server/src/worker',
    source: importing('ensureLease', '../modules/bots/bots.repo'),
  },
  {
    name: 'a web feature imports a shared component (allowed)',
    dir: 'apps/web/src/features/bots/components',
    source: importing('Button', '../../../components/ui/button'),
  },
  {
    name: 'engine imports shared (allowed)',
    dir: 'packages/engine/src',
    source: importing('SYMBOLS', '@gridbot/shared'),
  },
  {
    name: 'web imports the engine (allowed)',
    dir: 'apps/web/src',
    source: importing('step', '@gridbot/engine'),
  },
];

const probeName = (p: Probe, i: number) =>
  `dependency-probe-${process.pid}-${i}${p.kind ? `.${p.kind}` : ''}.ts`;
const files = PROBES.map((p, i) => join(ROOT, p.dir, probeName(p, i)));
const madeDirs = [...new Set(PROBES.map((p) => join(ROOT, p.dir)))].filter((dir) => !existsSync(dir));

function removeProbes() {
  for (const file of files) rmSync(file, { force: true });
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
}
let diagnostics: Array<{ category: string; location: { path: { file: string } | string } }> = [];

function lint(paths: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIOME, 'lint', '--reporter=json', '--max-diagnostics=none', ...paths],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
      (_error, stdout) => resolve(stdout),
    );
  });
}

beforeAll(async () => {
  try {
    for (const dir of madeDirs) mkdirSync(dir, { recursive: true });
    PROBES.forEach((p, i) => {
      writeFileSync(files[i] as string, p.source);
    });
    const report = JSON.parse(await lint(files));
    diagnostics = report.diagnostics ?? [];
  } finally {
    removeProbes();
  }
}, 60_000);

afterAll(removeProbes);

const fileOf = (d: (typeof diagnostics)[number]) =>
  typeof d.location.path === 'string' ? d.location.path : d.location.path.file;

describe('dependency rules', () => {
  it.each(PROBES.map((p, i) => [p.name, i] as const))('%s', (_name, i) => {
    const probe = PROBES[i] as Probe;
    const mine = diagnostics.filter((d) => fileOf(d).endsWith(probeName(probe, i)));
    const rules = mine.map((d) => d.category.split('/').at(-1));
    if (probe.rule) expect(rules).toContain(probe.rule);
    else expect(rules.filter((r) => r === 'noRestrictedImports' || r === 'noRestrictedGlobals')).toEqual([]);
  });
});
