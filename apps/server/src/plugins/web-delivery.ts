import { existsSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Responses smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** Vite names every file under assets/ by its content hash, so a changed file is a new URL. */
export const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
/** index.html and the unhashed public files: a cache may keep them but must ask (ETag) before each use. */
export const REVALIDATE_CACHE = 'no-cache';

/**
 * Compresses API responses above the threshold (brotli at a quick level, or gzip) for clients that accept
 * it. The web app's own files arrive already compressed (see registerWebApp) and pass through untouched.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
  });
}

function setCacheHeaders(reply: FastifyReply, path: string): void {
  const hashed = path.includes(`${sep}assets${sep}`) && basename(path) !== 'index.html';
  reply.header('cache-control', hashed ? HASHED_ASSET_CACHE : REVALIDATE_CACHE);
}

/**
 * The build's copies of index.html for the pages a visit opens on (apps/web build-plugins.ts ROUTE_PAGES):
 * `routes/<first path segment>.html` (`routes/index.html` for `/`, the login page), which also name that page's
 * code chunks for preloading.
 */
function pageFileFor(webDistDir: string, url: string): string {
  const segment = /^\/(?:[?#]|$)/.test(url) ? 'index' : /^\/([a-z][a-z-]*)(?:[/?#]|$)/.exec(url)?.[1];
  const routePage = segment === undefined ? undefined : join('routes', `${segment}.html`);
  return routePage !== undefined && existsSync(join(webDistDir, routePage)) ? routePage : 'index.html';
}

/** Serves the SPA: real files as they are, any other GET outside the API gets index.html (or its route page). */
export function registerWebApp(
  app: FastifyInstance,
  webDistDir: string | undefined,
  production = false,
): void {
  const hasWeb = webDistDir !== undefined && existsSync(join(webDistDir, 'index.html'));
  if (hasWeb) {
    app.register(fastifyStatic, {
      root: webDistDir,
      // wildcard: files are looked up per request, so a rebuilt dist/ is served without a restart.
      wildcard: true,
      index: ['index.html'],
      // The build writes .br and .gz beside each text file; the one the client accepts is sent.
      preCompressed: true,
      cacheControl: false,
      setHeaders: setCacheHeaders,
      // The build's own bookkeeping (.build-mode, .vite/manifest.json) is not for the browser.
      dotfiles: 'ignore',
      // Source maps are for development: in production they would publish the readable source.
      allowedPath: (pathName) => !(production && pathName.endsWith('.map')),
    });
  }
  if (hasWeb && webDistDir !== undefined) {
    // `/` is the login page, which has its own route page: a route of its own, before the static files' index.
    app.get('/', (request, reply) => reply.type('text/html').sendFile(pageFileFor(webDistDir, request.url)));
  }
  app.setNotFoundHandler((request, reply) => {
    // A missing build asset must be a 404, not index.html (a blank page that looks like success).
    const isApi =
      /^\/(api|platform|dev|assets)(\/|$)/.test(request.url) ||
      /^\/(healthz|readyz|metrics)(\?|$)/.test(request.url);
    if (hasWeb && webDistDir !== undefined && request.method === 'GET' && !isApi) {
      return reply.type('text/html').sendFile(pageFileFor(webDistDir, request.url));
    }
    return reply.status(404).send({ message: 'Not found' });
  });
}
