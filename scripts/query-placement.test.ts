/**
 * "Every query lives in a *.repo.ts" (docs/architecture.md §2). Biome refuses `drizzle-orm` outside repos, but
 * a query needs no import of it: `deps.db.select().from(bots)` builds one from the handle and the tables of
 * @gridbot/db. This check reads every server file that is not a repo, a test or a `testing/` helper (the
 * files Biome's rule covers) with the TypeScript parser and refuses a query method called on a database
 * handle. A handle is a name `db` or `tx` (`db`, `deps.db`, `this.db`) or one declared with the `Db` or `Tx`
 * type. Opening a transaction is not a query: a service opens one and passes it to the repo functions it calls,
 * as docs/architecture.md §2 says, so `.transaction(` stays allowed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER_SRC = join(ROOT, 'apps/server/src');

/** Drizzle's query builders on a database or a transaction (`PgDatabase`), besides `transaction` itself. */
const QUERY_METHODS = new Set([
  'select',
  'selectDistinct',
  'selectDistinctOn',
  'insert',
  'update',
  'delete',
  'execute',
  'with',
  '$with',
  '$count',
  'refreshMaterializedView',
]);
const HANDLE_NAMES = new Set(['db', 'tx']);
const HANDLE_TYPES = new Set(['Db', 'Tx']);

/** Repos, tests and test helpers may query; everything else in the server calls a repo. */
function mayQuery(path: string): boolean {
  const parts = path.split(/[\\/]/);
  const file = parts.at(-1) ?? '';
  return file.endsWith('.repo.ts') || file.endsWith('.test.ts') || parts.includes('testing');
}

/** The last name of `db`, `deps.db`, `this.db`, or undefined for any other expression. */
function lastName(node: ts.Expression): string | undefined {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isNonNullExpression(node) || ts.isParenthesizedExpression(node)) return lastName(node.expression);
  return undefined;
}

/** Names the file declares with the `Db` or `Tx` type (alone, in a union, or optional). */
function handleNames(source: ts.SourceFile): Set<string> {
  const names = new Set(HANDLE_NAMES);
  const isHandleType = (type: ts.TypeNode): boolean =>
    ts.isUnionTypeNode(type)
      ? type.types.some(isHandleType)
      : ts.isTypeReferenceNode(type) && HANDLE_TYPES.has(type.typeName.getText(source));
  const visit = (node: ts.Node) => {
    if (
      (ts.isParameter(node) ||
        ts.isVariableDeclaration(node) ||
        ts.isPropertyDeclaration(node) ||
        ts.isPropertySignature(node)) &&
      node.type &&
      isHandleType(node.type) &&
      ts.isIdentifier(node.name)
    ) {
      names.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** Each query method called on a database handle: `file:line handle.method(`. */
function queriesIn(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const handles = handleNames(source);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const { expression: receiver, name } = node.expression;
      const handle = lastName(receiver);
      // `db.query.bots.findMany(…)`: Drizzle's relational queries hang off the handle's `query`.
      const relational =
        ts.isPropertyAccessExpression(receiver) &&
        ts.isPropertyAccessExpression(receiver.expression) &&
        receiver.expression.name.text === 'query' &&
        handles.has(lastName(receiver.expression.expression) ?? '');
      if ((handle !== undefined && handles.has(handle) && QUERY_METHODS.has(name.text)) || relational) {
        const { line } = source.getLineAndCharacterOfPosition(name.getStart(source));
        found.push(`${fileName}:${line + 1} ${receiver.getText(source)}.${name.text}(`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function serverFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return serverFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('queries live in *.repo.ts', () => {
  it('finds no query outside the repos, tests and test helpers of apps/server/src', () => {
    const found = serverFiles(SERVER_SRC)
      .map((path) => relative(ROOT, path).split(sep).join('/'))
      .filter((path) => !mayQuery(path))
      .flatMap((path) => queriesIn(path, readFileSync(join(ROOT, path), 'utf8')));
    expect(found).toEqual([]);
  });

  it('leaves repos, tests and test helpers alone', () => {
    expect(mayQuery('apps/server/src/modules/bots/bots.repo.ts')).toBe(true);
    expect(mayQuery('apps/server/src/modules/bots/bots.routes.test.ts')).toBe(true);
    expect(mayQuery('apps/server/src/testing/test-app.ts')).toBe(true);
    expect(mayQuery('apps/server/src/modules/bots/bots.service.ts')).toBe(false);
    expect(mayQuery('apps/server/src/worker/bot-runner.ts')).toBe(false);
  });

  it('finds a query on any database handle, however the chain is laid out', () => {
    const fixture = [
      "import type { Db, Tx } from '@gridbot/db';",
      'export async function probe(deps: { db: Db }, executor: Db | Tx, store?: { db: Db }) {',
      '  await deps.db.select().from(bots);',
      '  await deps.db',
      '    .insert(bots)',
      '    .values({});',
      '  await executor.update(bots).set({});',
      '  await store!.db.delete(bots);',
      "  await deps.db.transaction((tx) => tx.execute('select 1'));",
      '  await deps.db.query.bots.findFirst();',
      '  return deps.db.$count(bots);',
      '}',
    ].join('\n');
    expect(queriesIn('probe.service.ts', fixture)).toEqual([
      'probe.service.ts:3 deps.db.select(',
      'probe.service.ts:5 deps.db.insert(',
      'probe.service.ts:7 executor.update(',
      'probe.service.ts:8 store!.db.delete(',
      'probe.service.ts:9 tx.execute(',
      'probe.service.ts:10 deps.db.query.bots.findFirst(',
      'probe.service.ts:11 deps.db.$count(',
    ]);
  });

  it('stays quiet on a transaction handed to repos and on methods of the same name elsewhere', () => {
    const fixture = [
      'export async function probe(deps: AppDeps, cache: Map<string, number>, hash: Hash) {',
      '  await deps.db.transaction(async (tx) => repo.updateWithdrawal(tx, id, {}));',
      "  cache.delete('key');",
      '  hash.update(body);',
      '  routes.delete(path, guard, handler);',
      '  await runner.execute(intent);',
      '  return repo.select(deps.db);',
      '}',
    ].join('\n');
    expect(queriesIn('probe.service.ts', fixture)).toEqual([]);
  });
});
