import { mkdirSync } from 'node:fs';
import buildServerBundles from '../../apps/server/src/testing/server-bundles.setup';
// @ts-expect-error plain ESM script without types
import { buildWebIfStale } from '../../scripts/build-web-if-stale.mjs';
import { makePgliteTemplate } from './pglite-template';

export default async function setup() {
  (buildWebIfStale as () => void)();
  // Every journey starts its own server: from the bundle, on a copy of one migrated database.
  await buildServerBundles();
  const removeTemplate = await makePgliteTemplate();
  mkdirSync('test-results/screenshots', { recursive: true });
  return removeTemplate;
}
