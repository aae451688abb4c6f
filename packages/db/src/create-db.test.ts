import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from './create-db';
import { users } from './schema';
import { createTestDb } from './testing/create-test-db';

describe(`createDb on ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`, () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await createTestDb();
  });
  afterAll(async () => {
    await handle.close();
  });

  it('applies the migrations so the tables exist', async () => {
    const rows = await handle.db.select({ n: sql<number>`count(*)::int` }).from(users);
    expect(rows[0]?.n).toBe(0);
  });

  it('keeps e-mail unique ignoring case', async () => {
    const base = { username: 'alice', contactNo: '5551234', passwordHash: 'x', userCode: 'AAAA1111' };
    await handle.db.insert(users).values({ ...base, email: 'Alice@Example.com' });
    await expect(
      handle.db
        .insert(users)
        .values({ ...base, email: 'alice@example.com', username: 'alice2', userCode: 'B' }),
    ).rejects.toThrow();
  });
});
