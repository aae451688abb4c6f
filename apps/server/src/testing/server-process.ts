import { basename } from 'node:path';

/**
 * Node's arguments to run one of the server's entries (`main.ts`, a test server that wraps it) as a process:
 * its bundle when the test run built them (`server-bundles.setup.ts` names their folder in
 * GRIDBOT_SERVER_BUNDLES), else the TypeScript under tsx's loader. A bundle starts in a fraction of the time,
 * which the tests that restart the server dozens of times feel most.
 */
export function serverNodeArgs(entry: string): string[] {
  const bundles = process.env.GRIDBOT_SERVER_BUNDLES;
  if (bundles) return ['--enable-source-maps', `${bundles}/${basename(entry, '.ts')}.mjs`];
  // node with tsx's loader, not `npx tsx`: a second faster per start.
  return ['--import', 'tsx', entry];
}
