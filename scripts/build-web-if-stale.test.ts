import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { staleReason, wantedBuildMode } from './build-web-if-stale.mjs';

type Paths = { builtIndex: string; builtMode: string; sources: string[] };
const reasonFor = staleReason as (mode: string, paths: Paths) => string | undefined;

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function fixture(recordedMode: string | undefined): Paths {
  const root = mkdtempSync(join(tmpdir(), 'stale-'));
  roots.push(root);
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'main.tsx'), 'x');
  const old = new Date(Date.now() - 60_000);
  utimesSync(join(root, 'src', 'main.tsx'), old, old);
  utimesSync(join(root, 'src'), old, old);
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'dist', 'index.html'), '<!doctype html>');
  if (recordedMode !== undefined) writeFileSync(join(root, 'dist', '.build-mode'), `${recordedMode}\n`);
  return {
    builtIndex: join(root, 'dist', 'index.html'),
    builtMode: join(root, 'dist', '.build-mode'),
    sources: [join(root, 'src')],
  };
}

describe('the web build staleness check', () => {
  it('ships production unless the start explicitly asks for development', () => {
    expect(wantedBuildMode(undefined)).toBe('production');
    expect(wantedBuildMode('production')).toBe('production');
    expect(wantedBuildMode('test')).toBe('production');
    expect(wantedBuildMode('development')).toBe('development');
  });

  it('rebuilds a development build, newer than every source, for a production start', () => {
    expect(reasonFor('production', fixture('development'))).toMatch(/development.*production/);
  });

  it('rebuilds a build that does not record its mode', () => {
    expect(reasonFor('production', fixture(undefined))).toMatch(/unknown/);
  });

  it('keeps a fresh build made in the wanted mode, and rebuilds it once a source changes', () => {
    const paths = fixture('production');
    expect(reasonFor('production', paths)).toBeUndefined();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(paths.sources[0]!, 'main.tsx'), later, later);
    expect(reasonFor('production', paths)).toMatch(/sources changed/);
  });
});
