import { platformSubscriptions, referralRewards, withdrawals } from '@gridbot/db';
import { platformMessages as m } from '@gridbot/shared';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { findWallet } from '../credit/ledger.repo';
import { ledgerProblems } from './testing/ledger-checks';
import { fund, platform, signUp } from './testing/platform-fixtures';

// Concurrent requests on one balance cannot both spend it. PostgreSQL only (`npm run test:pg`):
// PGlite has one connection, so its transactions never overlap; here they do, on a pool of connections.
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const N = 12;

describe('platform money under concurrent requests (PostgreSQL)', () => {
  let t: TestApp;
  let admin: string;
  let starterId: string;

  beforeAll(async () => {
    t = await createTestApp();
    expect(t.handle.kind).toBe('postgres');
    admin = (await signUp(t, undefined, 'admin@example.com')).token;
    const plans = (await platform(t, '/subscription/plans', admin)).body.data as {
      plans: { id: string; name: string }[];
    };
    starterId = plans.plans.find((p) => p.name === 'Starter')?.id ?? '';
  });
  afterAll(() => t.close());

  const codes = (results: { body: Record<string, unknown> }[]) => results.map((r) => String(r.body.code));
  const wallet = async (id: string) => findWallet(t.deps.db, id);

  it('lets exactly one of many concurrent subscriptions spend a balance that pays one, rewarding once', async () => {
    const referrer = await signUp(t);
    const buyer = await signUp(t, referrer.userCode);
    await fund(t, buyer.id, 'usdtToken', '150');
    const results = await Promise.all(
      Array.from({ length: N }, () =>
        platform(t, '/subscription/create', buyer.token, { planId: starterId }),
      ),
    );
    expect(codes(results).filter((c) => c === '0000')).toHaveLength(1);
    for (const r of results.filter((x) => x.body.code !== '0000')) {
      expect([r.status, r.body.msg]).toEqual([400, m.insufficientBalance('USDT', '100', '50')]);
    }
    expect(await wallet(buyer.id)).toMatchObject({ usdtToken: '50', availableCredit: '400' });
    const [subs] = await t.deps.db
      .select({ n: count() })
      .from(platformSubscriptions)
      .where(eq(platformSubscriptions.userId, buyer.id));
    expect(subs?.n).toBe(1);
    const rewards = await t.deps.db
      .select()
      .from(referralRewards)
      .where(eq(referralRewards.userId, referrer.id));
    expect(rewards.map((r) => r.amount)).toEqual(['10']);
    expect(await ledgerProblems(t, buyer.id)).toEqual([]);
    expect(await ledgerProblems(t, referrer.id)).toEqual([]);
  });

  it('keeps a shared referrer’s ledger in order when its referred users subscribe at once', async () => {
    const referrer = await signUp(t);
    const buyers = [];
    for (let i = 0; i < 8; i += 1) buyers.push(await signUp(t, referrer.userCode));
    for (const b of buyers) await fund(t, b.id, 'usdtToken', '100');
    const results = await Promise.all(
      buyers.map((b) => platform(t, '/subscription/create', b.token, { planId: starterId })),
    );
    expect(codes(results)).toEqual(buyers.map(() => '0000'));
    expect((await wallet(referrer.id))?.usdtRewardToken).toBe('80');
    for (const u of [referrer, ...buyers]) expect(await ledgerProblems(t, u.id)).toEqual([]);
  });

  it('holds concurrent withdrawals and swaps of one rewards balance at most once each', async () => {
    const u = await signUp(t);
    await fund(t, u.id, 'usdtRewardToken', '100');
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        i % 2 === 0
          ? platform(t, '/withdraw/create', u.token, { amount: '30', toAddress: ADDRESS })
          : platform(t, '/swap/usdt-reward/create', u.token, { amount: '30' }),
      ),
    );
    const won = results.filter((r) => r.body.code === '0000');
    expect(won).toHaveLength(3);
    for (const r of results.filter((x) => x.body.code !== '0000')) expect(r.status).toBe(400);
    const w = await wallet(u.id);
    expect(w?.usdtRewardToken).toBe('10');
    const [held] = await t.deps.db
      .select({ n: count() })
      .from(withdrawals)
      .where(eq(withdrawals.userId, u.id));
    expect(Number(w?.usdtToken) + 30 * (held?.n ?? 0)).toBe(90);
    expect(await ledgerProblems(t, u.id)).toEqual([]);
  });

  it('holds only what the balance covers when many withdrawals arrive at once', async () => {
    const u = await signUp(t);
    await fund(t, u.id, 'usdtRewardToken', '50');
    const results = await Promise.all(
      Array.from({ length: N }, () =>
        platform(t, '/withdraw/create', u.token, { amount: '20', toAddress: ADDRESS }),
      ),
    );
    expect(codes(results).filter((c) => c === '0000')).toHaveLength(2);
    expect((await wallet(u.id))?.usdtRewardToken).toBe('10');
    const list = await platform(t, '/withdraw/list', u.token, { filters: {}, limit: 10, page: 1 });
    expect((list.body.data as { records: { status: string }[] }).records.map((r) => r.status)).toEqual([
      'PENDING',
      'PENDING',
    ]);
    expect(await ledgerProblems(t, u.id)).toEqual([]);
  });

  it('decides a withdrawal once when an approval and a rejection race, refunding at most once', async () => {
    const u = await signUp(t);
    await fund(t, u.id, 'usdtRewardToken', '100');
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await platform(t, '/withdraw/create', u.token, { amount: '25', toAddress: ADDRESS });
      ids.push((res.body.data as { id: string }).id);
    }
    const decide = (id: string, action: 'approve' | 'reject') =>
      call(
        t,
        'POST',
        `/api/admin/withdrawals/${id}/${action}`,
        action === 'approve' ? { txHash: `0x${'ab'.repeat(32)}` } : {},
        {
          token: admin,
        },
      );
    const results = await Promise.all(
      ids.flatMap((id) => [decide(id, 'approve'), decide(id, 'reject'), decide(id, 'reject')]),
    );
    for (let i = 0; i < ids.length; i += 1) {
      const statuses = results.slice(i * 3, i * 3 + 3).map((r) => r.status);
      expect(
        statuses.filter((s) => s === 200),
        `withdrawal ${i}`,
      ).toHaveLength(1);
      expect(
        statuses.filter((s) => s === 409),
        `withdrawal ${i}`,
      ).toHaveLength(2);
    }
    const rows = await t.deps.db.select().from(withdrawals).where(eq(withdrawals.userId, u.id));
    const rejected = rows.filter((r) => r.status === 'REJECTED').length;
    expect(rows.every((r) => r.status === 'SENT' || r.status === 'REJECTED')).toBe(true);
    expect(Number((await wallet(u.id))?.usdtRewardToken)).toBe(25 * rejected);
    expect(await ledgerProblems(t, u.id)).toEqual([]);
  });
});
