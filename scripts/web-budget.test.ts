import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { buildWebIfStale } from './build-web-if-stale.mjs';
// @ts-expect-error plain ESM script without types
import { LOGIN_BUDGET_BYTES, routeScriptSizes } from './web-budget.mjs';

type Sizes = Record<
  string,
  { files: string[]; modules: string[]; rawBytes: number; compressedBytes: number }
>;

describe('the web app production build', () => {
  // The same build `npm start` serves (rebuilt here only when stale or not a production build).
  const sizes = (() => {
    (buildWebIfStale as (mode: string) => void)('production');
    return (routeScriptSizes as () => Sizes)();
  })();

  // The public screens a newcomer opens first share the login's budget: sign-up and the reset link.
  it.each(['login', 'signup', 'resetpassword'])(
    `keeps the %s route's compressed JavaScript within ${LOGIN_BUDGET_BYTES / 1024} KiB`,
    (route) => {
      const size = sizes[route]!;
      expect(size.compressedBytes, size.files.join('\n')).toBeLessThanOrEqual(LOGIN_BUDGET_BYTES);
    },
  );

  it('loads no charts, table, QR, engine or toaster code on the public screens', () => {
    for (const route of ['login', 'signup', 'resetpassword']) {
      const modules = sizes[route]!.modules;
      expect(modules.length, route).toBeGreaterThan(0);
      const heavy = modules.filter((module) =>
        /lightweight-charts|uqr|decimal\.js|sonner|packages\/engine|data-table|qr-code|features\/(dashboard|bots|wallet|shell\/components\/app-shell)/.test(
          module,
        ),
      );
      expect(heavy, route).toEqual([]);
    }
  });
});
