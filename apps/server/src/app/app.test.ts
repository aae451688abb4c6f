import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { buildApp } from './app';

let t: TestApp;
let web: Awaited<ReturnType<typeof buildApp>>;
const dist = mkdtempSync(join(tmpdir(), 'web-dist-'));

beforeAll(async () => {
  t = await createTestApp();
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>GridBot</title>');
  web = await buildApp(t.deps, { webDistDir: dist });
});
afterAll(async () => {
  await web.close();
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it('answers any page path with index.html (the SPA routes it)', async () => {
    for (const url of ['/', '/running-bot/123', '/resetpassword/abc?x=1']) {
      const res = await web.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<title>GridBot</title>');
    }
  });

  it('serves a build asset written after start, and 404s a missing one', async () => {
    writeFileSync(join(dist, 'assets', 'late.js'), 'console.log(1)');
    expect((await web.inject({ method: 'GET', url: '/assets/late.js' })).statusCode).toBe(200);
    expect((await web.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
  });

  it('keeps unknown API paths JSON 404s', async () => {
    const res = await web.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found' });
  });
});
