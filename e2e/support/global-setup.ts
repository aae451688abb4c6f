import { mkdirSync } from 'node:fs';
// @ts-expect-error plain ESM script without types
import { buildWebIfStale } from '../../scripts/build-web-if-stale.mjs';

export default function setup() {
  (buildWebIfStale as () => void)();
  mkdirSync('test-results/screenshots', { recursive: true });
}
