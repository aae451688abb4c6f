// @ts-expect-error plain ESM script without types
import { buildServerBundles } from '../../../../scripts/build-server.mjs';

/** Vitest global setup: bundles the server once per run for the tests that start it (`server-process.ts`). */
export default async function setup(): Promise<void> {
  process.env.GRIDBOT_SERVER_BUNDLES = await (buildServerBundles as () => Promise<string>)();
}
