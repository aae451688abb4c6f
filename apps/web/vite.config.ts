import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build-plugins.ts';
import { signedInChunkGroups } from './chunk-groups.ts';

// The server (apps/server) listens on 3000 and serves the built app in production; in development Vite
// serves the app and forwards every API prefix so both run on one origin, as they do in production.
const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:3000';
const proxy = Object.fromEntries(
  ['/api', '/dev', '/healthz', '/platform'].map((prefix) => [
    prefix,
    { target: apiTarget, changeOrigin: false },
  ]),
);

// react-router's package exports point every bundler at its development build (warnings and checks
// included); a production build takes its production files instead (remix-run/react-router#12532).
const reactRouterDir = dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
const productionAliases =
  process.env.NODE_ENV === 'development'
    ? []
    : [{ find: /^react-router$/, replacement: join(reactRouterDir, 'dist/production/index.mjs') }];

export default defineConfig(({ command }) => ({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: { alias: command === 'build' ? productionAliases : [] },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    manifest: true,
    rolldownOptions: { output: { codeSplitting: { groups: signedInChunkGroups() } } },
  },
}));
