/**
 * Comments, docs and messages cite the documents by section (`docs/trading-rules.md §2.2`, `\u00a7` in JSON)
 * and link to their headings (`architecture.md#2-dependency-rules`); docs/contributing.md §7 asks for it. The
 * numbers are stable, and this check keeps them true: every cited section must be a numbered heading of the
 * cited file (`## 2. Trading semantics` is §2, `### 2.1 Market rules and money` is §2.1), and every linked
 * heading must exist. It reads every text file of the repository but dependencies, build output and fixtures.
 *
 * The forms it reads, each naming its file:
 * - a path: `docs/trading-rules.md §3`, `` `docs/trading-rules.md` §2 ``, with more sections after it
 *   (`§5/§8`, `§2.1–2.2`, `§3, §5`, `§5 and §8`) citing the same file;
 * - a document's name without its folder: `trading-rules §3`, `[operations §5](docs/operations.md)`, which
 *   means the file in docs/ (or the link's target);
 * - a link with a heading: `docs/architecture.md#2-dependency-rules`, `(trading-rules.md#3-runtime-…)`.
 * A bare `§2.5` cites the file it is in or a standard (RFC 6238 §5.2), which text alone cannot tell apart: it
 * is not checked.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'fixtures', 'data', 'test-results', 'coverage']);
const TEXT = /\.(ts|tsx|js|mjs|cjs|json|md|sql|css|html|ya?ml)$/;
/** This file's examples cite missing sections on purpose. */
const SELF = 'scripts/doc-refs.test.ts';

/** A document's numbered sections and its headings' anchors, as GitHub makes them. */
interface Outline {
  sections: Set<string>;
  anchors: Set<string>;
}

const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function outlineOf(text: string): Outline {
  const sections = new Set<string>();
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*$/gm)) {
    const title = heading as string;
    anchors.add(slug(title));
    const number = /^(\d+(?:\.\d+)*)\.?(?:\s|$)/.exec(title)?.[1];
    if (number) sections.add(number);
  }
  return { sections, anchors };
}

const SECTION = String.raw`(?:§|\\u00a7)`;
const NUMBER = String.raw`\d+(?:\.\d+)*`;
/** More sections of the same file after the first: "§5/§8", "§2.1–2.2", "§3, §5", "§5 and §8". */
const MORE = String.raw`(?:(?:\s*[,/–-]\s*|\s+and\s+)${SECTION}?${NUMBER}\b)*`;
const DOC_PATH = String.raw`docs/[\w./-]+?\.md`;
const DOC_NAMES = [
  'architecture',
  'benchmarks',
  'contributing',
  'operations',
  'product',
  'security',
  'trading-rules',
];
const CITATIONS = [
  // docs/trading-rules.md §3, `docs/trading-rules.md` §2
  new RegExp(String.raw`(?<![\w/])(${DOC_PATH})\`?\s${SECTION}(${NUMBER}${MORE})`, 'g'),
  // trading-rules §3, [trading-rules.md §3](…): the document in docs/
  new RegExp(String.raw`(?<![\w/.-])(${DOC_NAMES.join('|')})(?:\.md)?\s${SECTION}(${NUMBER}${MORE})`, 'g'),
];
/** A link to a heading of a document: the target as written (relative to its file) and the anchor. */
const HEADING_LINK = /(?<![\w/.-])((?:\.\.\/|\.\/)*(?:docs\/)?[\w./-]*?[\w-]+\.md)#([\w-]+)/g;

/** Each citation of a section or heading that is not in the cited file, as `where: what`. */
function brokenRefs(file: string, text: string, outline: (doc: string) => Outline | undefined): string[] {
  const broken: string[] = [];
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  for (const pattern of CITATIONS) {
    for (const match of text.matchAll(pattern)) {
      const [whole, named, list] = match as unknown as [string, string, string];
      const doc = named.startsWith('docs/') ? named : `docs/${named.replace(/\.md$/, '')}.md`;
      const where = `${file}:${lineOf(match.index ?? 0)}`;
      const sections = outline(doc)?.sections;
      if (!sections) {
        broken.push(`${where}: ${whole.trim()} (no ${doc})`);
        continue;
      }
      for (const [number] of list.matchAll(new RegExp(NUMBER, 'g'))) {
        if (!sections.has(number)) broken.push(`${where}: ${doc} §${number}`);
      }
    }
  }
  for (const match of text.matchAll(HEADING_LINK)) {
    const [whole, target, anchor] = match as unknown as [string, string, string];
    // A link is relative to its file; a comment in code writes the path from the repository's root.
    const beside = relative(ROOT, join(ROOT, dirname(file), target))
      .split(sep)
      .join('/');
    const doc =
      file.endsWith('.md') && !target.startsWith('docs/') ? beside : target.replace(/^(\.\.?\/)+/, '');
    const anchors = outline(doc)?.anchors;
    if (!anchors?.has(anchor)) broken.push(`${file}:${lineOf(match.index ?? 0)}: ${whole}`);
  }
  return broken;
}

function textFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIP_DIRS.has(entry.name) ? [] : textFiles(join(dir, entry.name));
    return TEXT.test(entry.name) && entry.name !== 'package-lock.json' ? [join(dir, entry.name)] : [];
  });
}

/** Outlines of the repository's documents, read once each. */
function repositoryOutlines(): (doc: string) => Outline | undefined {
  const cache = new Map<string, Outline | undefined>();
  return (doc) => {
    if (!cache.has(doc)) {
      const path = join(ROOT, doc);
      cache.set(doc, existsSync(path) ? outlineOf(readFileSync(path, 'utf8')) : undefined);
    }
    return cache.get(doc);
  };
}

/** A file's text; undefined when it went away after it was listed (another check's probe file, removed). */
function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

describe('document references', () => {
  it('cite sections and headings that the cited documents have', () => {
    const outline = repositoryOutlines();
    const broken = textFiles(ROOT).flatMap((path) => {
      const file = relative(ROOT, path).split(sep).join('/');
      const text = file === SELF ? undefined : readIfThere(path);
      return text === undefined ? [] : brokenRefs(file, text, outline);
    });
    expect(broken).toEqual([]);
  });

  it('reads the sections of a document from its numbered headings', () => {
    const { sections, anchors } = outlineOf(
      '# Title\n\n## 2. Trading semantics\n\n### 2.1 Market rules and money\n\n## Recipes\n\n## 3. Runtime rules\n',
    );
    expect([...sections]).toEqual(['2', '2.1', '3']);
    expect([...anchors]).toEqual([
      'title',
      '2-trading-semantics',
      '21-market-rules-and-money',
      'recipes',
      '3-runtime-rules',
    ]);
  });

  it('finds a cited section, a document or a heading that does not exist, in every form', () => {
    const docs: Record<string, Outline> = {
      'docs/trading-rules.md': outlineOf('## 2. Trading\n### 2.1 Money\n## 3. Runtime rules\n'),
      'docs/spec/01-core-screens.md': outlineOf('## 5. Validation rules\n## 8. The error catalogue\n'),
    };
    const text = [
      '// docs/trading-rules.md §2.1 and docs/trading-rules.md §3 are there', // line 1
      '// docs/trading-rules.md §4 is not', // 2
      '// (docs/spec/01-core-screens.md §5/§8, §9)', // 3
      '"message": "(docs/trading-rules.md \\u00a72.2)"', // 4
      '// `docs/trading-rules.md` §2, trading-rules §2.1, [trading-rules.md §7](trading-rules.md)', // 5
      '// docs/nowhere.md §1', // 6
      '// docs/trading-rules.md#3-runtime-rules and docs/trading-rules.md#4-gone', // 7
      '// RFC 6238 §5.2 and §9 alone are not citations of a document', // 8
    ].join('\n');
    expect(brokenRefs('apps/server/src/x.ts', text, (doc) => docs[doc])).toEqual([
      'apps/server/src/x.ts:2: docs/trading-rules.md §4',
      'apps/server/src/x.ts:3: docs/spec/01-core-screens.md §9',
      'apps/server/src/x.ts:4: docs/trading-rules.md §2.2',
      'apps/server/src/x.ts:6: docs/nowhere.md §1 (no docs/nowhere.md)',
      'apps/server/src/x.ts:5: docs/trading-rules.md §7',
      'apps/server/src/x.ts:7: docs/trading-rules.md#4-gone',
    ]);
  });

  it('resolves a link in a document against that document', () => {
    const docs: Record<string, Outline> = { 'docs/architecture.md': outlineOf('## 2. Dependency rules\n') };
    const text = '[rules](architecture.md#2-dependency-rules), [gone](architecture.md#9-gone)';
    expect(brokenRefs('docs/contributing.md', text, (doc) => docs[doc])).toEqual([
      'docs/contributing.md:1: architecture.md#9-gone',
    ]);
  });
});
