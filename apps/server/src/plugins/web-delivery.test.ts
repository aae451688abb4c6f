import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app/app';
import { createTestApp, type TestApp } from '../testing/test-app';
import { COMPRESSION_THRESHOLD_BYTES, HASHED_ASSET_CACHE, registerWebApp } from './web-delivery';

let t: TestApp;
let web: Awaited<ReturnType<typeof buildApp>>;
const dist = mkdtempSync(join(tmpdir(), 'web-delivery-'));
const script = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `row ${i}`))};\n`;
const indexHtml = `<!doctype html><html lang="en"><title>GridBot</title>${'<!-- padding -->'.repeat(100)}</html>`;
// The build's route page for the running-bot page: index.html naming that page's chunks for preloading.
const runningBotHtml = indexHtml.replace(
  '<title>',
  '<link rel="modulepreload" href="/assets/running-bot-Ab12.js"><title>',
);

// A build as Vite and its precompress plugin leave it: each text file beside its .br and .gz.
function writeWithCompressed(path: string, text: string) {
  writeFileSync(path, text);
  writeFileSync(`${path}.br`, brotliCompressSync(text));
  writeFileSync(`${path}.gz`, gzipSync(text));
}

beforeAll(async () => {
  t = await createTestApp();
  mkdirSync(join(dist, 'assets'));
  writeWithCompressed(join(dist, 'index.html'), indexHtml);
  mkdirSync(join(dist, 'routes'));
  writeWithCompressed(join(dist, 'routes', 'running-bot.html'), runningBotHtml);
  writeWithCompressed(join(dist, 'assets', 'index-Bx7Qd2aZ.js'), script);
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dist, 'assets', 'index-Bx7Qd2aZ.js.map'), '{"version":3}');
  writeFileSync(join(dist, '.build-mode'), 'production\n');
  web = await buildApp(t.deps, { webDistDir: dist });
});
afterAll(async () => {
  await web.close();
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('hashed build assets', () => {
  it('are sent brotli-compressed from the build, cached for a year as immutable', async () => {
    const res = await web.inject({
      method: 'GET',
      url: '/assets/index-Bx7Qd2aZ.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers['cache-control']).toBe(HASHED_ASSET_CACHE);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('are sent gzip to a client without brotli, and plain to one that accepts neither', async () => {
    const gz = await web.inject({
      method: 'GET',
      url: '/assets/index-Bx7Qd2aZ.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await web.inject({
      method: 'GET',
      url: '/assets/index-Bx7Qd2aZ.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['cache-control']).toBe(HASHED_ASSET_CACHE);
  });
});

describe('source maps', () => {
  it('are served in development and hidden in production', async () => {
    const map = { method: 'GET' as const, url: '/assets/index-Bx7Qd2aZ.js.map' };
    expect((await web.inject(map)).statusCode).toBe(200);
    const production = Fastify();
    registerWebApp(production, dist, true);
    expect((await production.inject(map)).statusCode).toBe(404);
    await production.close();
  });
});

describe('index.html', () => {
  it('is compressed and revalidated on every use, at / and at any page path', async () => {
    for (const url of ['/', '/dashboard', '/history?page=2']) {
      const res = await web.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(indexHtml);
    }
  });

  it("is the build's route page where there is one, with that page's chunks to preload", async () => {
    for (const url of ['/running-bot/42', '/running-bot/42?tab=orders']) {
      const res = await web.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(runningBotHtml);
    }
    // A path that only starts like one is not that page.
    const other = await web.inject({ method: 'GET', url: '/running-bots' });
    expect(other.body).toBe(indexHtml);
  });

  it("sends the login page's route page at /, with or without a query, once the build has one", async () => {
    const loginHtml = indexHtml.replace(
      '<title>',
      '<link rel="modulepreload" href="/assets/login-Cd34.js"><title>',
    );
    writeWithCompressed(join(dist, 'routes', 'index.html'), loginHtml);
    try {
      for (const url of ['/', '/?redirect=%2Fdashboard']) {
        const res = await web.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['cache-control'], url).toBe('no-cache');
        expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(loginHtml);
        const plain = await web.inject({ method: 'GET', url });
        expect(plain.statusCode, url).toBe(200);
        expect(plain.body, url).toBe(loginHtml);
      }
      expect((await web.inject({ method: 'GET', url: '/signup' })).body).toBe(indexHtml);
    } finally {
      for (const suffix of ['', '.br', '.gz']) rmSync(join(dist, 'routes', `index.html${suffix}`));
    }
  });

  it('keeps the unhashed public files revalidated too, and never serves the build bookkeeping', async () => {
    const icon = await web.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');

    const mode = await web.inject({ method: 'GET', url: '/.build-mode' });
    expect(mode.body).not.toContain('production');
  });
});

describe('API responses', () => {
  it('are compressed above the threshold for a client that accepts it', async () => {
    const res = await web.inject({
      method: 'GET',
      url: '/api/tickers',
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    const body = brotliDecompressSync(res.rawPayload);
    expect(body.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    expect(JSON.parse(body.toString()).tickers.length).toBeGreaterThan(0);

    const gz = await web.inject({
      method: 'GET',
      url: '/api/tickers',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString()).tickers.length).toBeGreaterThan(0);
  });

  it('go out plain below the threshold and to clients that send no accept-encoding', async () => {
    const small = await web.inject({
      method: 'GET',
      url: '/api/nothing-here',
      headers: { 'accept-encoding': 'br' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ message: 'Not found' });

    const plain = await web.inject({ method: 'GET', url: '/api/tickers' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().tickers.length).toBeGreaterThan(0);
  });
});
