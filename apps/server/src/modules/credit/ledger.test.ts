import { platformLedger, platformWallets } from '@gridbot/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { ledgerProblems } from '../platform/testing/ledger-checks';
import { signUp } from '../platform/testing/platform-fixtures';
import { ensureWallet, findWallet } from './ledger.repo';

describe('platform wallet creation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('writes the wallet and its free-credit ledger row together or not at all', async () => {
    // A member from before subscriptions were switched on: no wallet yet.
    const u = await signUp(t);
    await t.deps.db.delete(platformLedger).where(eq(platformLedger.userId, u.id));
    await t.deps.db.delete(platformWallets).where(eq(platformWallets.userId, u.id));
    // The ledger insert fails (a real database error, raised by a trigger for this user only).
    await t.deps.db.execute(
      sql.raw(`CREATE FUNCTION fail_seed_row() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.user_id = '${u.id}' THEN RAISE EXCEPTION 'ledger unavailable'; END IF;
          RETURN NEW;
        END $$`),
    );
    await t.deps.db.execute(
      sql.raw(
        'CREATE TRIGGER fail_seed BEFORE INSERT ON platform_ledger FOR EACH ROW EXECUTE FUNCTION fail_seed_row()',
      ),
    );
    await expect(ensureWallet(t.deps.db, u.id, '100')).rejects.toThrow();
    expect(await findWallet(t.deps.db, u.id)).toBeUndefined();

    await t.deps.db.execute(sql.raw('DROP TRIGGER fail_seed ON platform_ledger'));
    await ensureWallet(t.deps.db, u.id, '100');
    await ensureWallet(t.deps.db, u.id, '100');
    expect((await findWallet(t.deps.db, u.id))?.availableCredit).toBe('100');
    expect(await ledgerProblems(t, u.id)).toEqual([]);
  });
});
