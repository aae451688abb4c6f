#!/usr/bin/env node
// Rewrites references to the old outside documents into references to docs/ in this repository. The old
// names are written below with a "·" so that this file never rewrites itself:
//
//   DESIGN·§2, §2.1–§2.5, §3     → docs/trading-rules.md §…   (same section numbers)
//   DESIGN·§1, §4                → docs/architecture.md §…    (same section numbers)
//   DESIGN·§5                    → docs/product.md §5
//   STYLE·§1–§8                  → docs/contributing.md §…    (same section numbers)
//   spec·01 [§N], spec·02 [§N]   → docs/spec/01-core-screens.md [§N], docs/spec/02-bots-wallet-account.md [§N]
//   spec·01/02                   → docs/spec
//
// A list of sections after one prefix ("DESIGN·§2.1, §3", "DESIGN·§2.2–2.4") stays one reference when every
// section lives in the same file, and becomes one reference per file otherwise. `§` written as `\u00a7` (JSON
// strings) is understood and written back the same way. Running it twice changes nothing.
//
// Usage:
//   node scripts/remap-doc-refs.mjs [--dry-run] [--list-left] PATH…
//     PATH        files or directories (walked; node_modules, dist, .git, fixtures, migration snapshots and
//                 binary files are skipped)
//     --dry-run   print what would change, write nothing
//     --list-left also print mentions of DESIGN / STYLE / spec that no rule matched, for a person to fix
//   Prints the changed files one per line (after "changed:"), so the formatter can follow:
//     node scripts/remap-doc-refs.mjs apps packages e2e | sed -n 's/^changed: //p' | xargs npx biome check --write
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';

const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'fixtures', 'meta', 'test-results', 'data']);
const TEXT_EXT = new Set([
  '.ts',
  '.tsx',
  '.js',
  '.mjs',
  '.cjs',
  '.json',
  '.md',
  '.sql',
  '.css',
  '.html',
  '.yml',
  '.yaml',
  '',
]);

/** Which document holds a section of the old design document. */
function designDoc(section) {
  const top = section.split('.')[0];
  if (top === '2' || top === '3') return 'docs/trading-rules.md';
  if (top === '1' || top === '4') return 'docs/architecture.md';
  if (top === '5') return 'docs/product.md';
  return undefined;
}

const SPEC_FILES = { '01': 'docs/spec/01-core-screens.md', '02': 'docs/spec/02-bots-wallet-account.md' };
const SECTION = String.raw`(?:§|\\u00a7)`;
const NUM = String.raw`\d+(?:\.\d+)*`;
// "§2.1", then any of ", §3", " and §3", "–2.4", "–§2.4", "/§4".
const LIST = String.raw`${SECTION}${NUM}(?:\s*(?:,|and|–|-|/)\s*${SECTION}?${NUM})*`;

function splitList(list) {
  const sign = list.includes('\\u00a7') ? '\\u00a7' : '§';
  const parts = [];
  const re = new RegExp(String.raw`(\s*(?:,|and|–|-|/)\s*)?(${SECTION})?(${NUM})`, 'g');
  for (const m of list.matchAll(re)) parts.push({ sep: m[1] ?? '', marked: m[2] !== undefined, num: m[3] });
  return { sign, parts };
}

function remapDesign(_all, list) {
  const { sign, parts } = splitList(list);
  const docs = parts.map((p) => designDoc(p.num));
  if (docs.some((d) => d === undefined)) return _all;
  if (docs.every((d) => d === docs[0])) return `${docs[0]} ${list}`;
  return parts
    .map((p, i) => `${i === 0 ? '' : p.sep.replace(/\s*–\s*/, ', ')}${docs[i]} ${sign}${p.num}`)
    .join('');
}

const RULES = [
  [/\b[Ss]pec 01\/02\b/g, () => 'docs/spec'],
  [new RegExp(String.raw`\bDESIGN\s+(${LIST})`, 'g'), remapDesign],
  [new RegExp(String.raw`\bSTYLE\s+(${LIST})`, 'g'), (_all, list) => `docs/contributing.md ${list}`],
  [/\b[Ss]pec (0[12])\b(?![-/])/g, (_all, n) => SPEC_FILES[n]],
];
const LEFT = /\b(DESIGN|STYLE)\b(?!\.md)|\b[Ss]pec 0[12]\b|shared\/(DESIGN|STYLE)\.md|shared\/spec/g;

function remap(text) {
  let out = text;
  for (const [re, fn] of RULES) out = out.replace(re, fn);
  return out;
}

function* walk(path) {
  const st = statSync(path);
  if (st.isDirectory()) {
    for (const name of readdirSync(path).sort()) {
      if (SKIP_DIRS.has(name)) continue;
      yield* walk(join(path, name));
    }
  } else if (TEXT_EXT.has(extname(path)) && !path.endsWith('package-lock.json')) {
    yield path;
  }
}

const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const listLeft = args.includes('--list-left');
const paths = args.filter((a) => !a.startsWith('--'));
if (paths.length === 0) {
  console.error('usage: node scripts/remap-doc-refs.mjs [--dry-run] [--list-left] PATH…');
  process.exit(2);
}

let changed = 0;
for (const root of paths) {
  for (const file of walk(root)) {
    const text = readFileSync(file, 'utf8');
    if (text.includes('\0')) continue;
    const next = remap(text);
    if (next !== text) {
      changed += 1;
      if (dryRun) {
        const before = text.split('\n');
        next.split('\n').forEach((line, i) => {
          if (line !== before[i]) console.log(`${file}:${i + 1}: ${line.trim()}`);
        });
      } else {
        writeFileSync(file, next);
      }
      console.log(`changed: ${file}`);
    }
    if (listLeft && !file.endsWith('remap-doc-refs.mjs')) {
      next.split('\n').forEach((line, i) => {
        if (line.match(LEFT)) console.log(`left: ${file}:${i + 1}: ${line.trim()}`);
      });
    }
  }
}
console.error(`${changed} file(s) ${dryRun ? 'would change' : 'changed'}`);
