import { adminActions, withdrawals } from '@gridbot/db';
import { platformMessages as m } from '@gridbot/shared';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { findWallet } from '../credit/ledger.repo';
import { ledgerProblems } from '../platform/testing/ledger-checks';
import { fund, platform, signUp } from '../platform/testing/platform-fixtures';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const HASH = `0x${'1f'.repeat(32)}`;
const list = { filters: {}, limit: 10, page: 1 };
const planBody = { name: 'Admin Plan', usdtToken: '40', ifcToken: '0', ifxToken: '0', availableCredit: '90' };

type Method = 'GET' | 'POST' | 'PUT';
interface Row {
  id: string;
  status?: string;
  txHash?: string | null;
  action?: string;
}

/** One admin API request (the shared `call` helper has no PUT). */
async function api(t: TestApp, method: Method, url: string, token: string, body?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

describe('admin API', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let writes = 0;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signUp(t, undefined, 'admin@example.com');
  });
  afterAll(() => t.close());

  const records = (body: Record<string, unknown>) => body.records as Row[];
  /** The newest entry of the admin action log, read through the API. */
  const lastAction = async () => {
    const res = await api(t, 'GET', '/api/admin/actions', admin.token);
    return records(res.body)[0] as Row & { adminEmail: string; target: string | null; createdAt: string };
  };
  /** A member with rewards and one PENDING withdrawal of `amount`. */
  const memberWithWithdrawal = async (amount: string) => {
    const member = await signUp(t);
    await fund(t, member.id, 'usdtRewardToken', '50');
    const res = await platform(t, '/withdraw/create', member.token, { amount, toAddress: ADDRESS });
    expect(res.body.code).toBe('0000');
    return { member, withdrawalId: (res.body.data as Row).id };
  };
  const memberStatus = async (token: string) =>
    records((await platform(t, '/withdraw/list', token, list)).body.data as Record<string, unknown>)[0];

  it('answers 404 to a signed-in member on every admin route, and nothing changes', async () => {
    const { member, withdrawalId } = await memberWithWithdrawal('20');
    const planId = ((await platform(t, '/subscription/plans', member.token)).body.data as { plans: Row[] })
      .plans[0]?.id;
    const routes: [Method, string, unknown?][] = [
      ['GET', '/api/admin/withdrawals'],
      ['GET', '/api/admin/withdrawals?status=PENDING'],
      ['POST', `/api/admin/withdrawals/${withdrawalId}/approve`, { txHash: HASH }],
      ['POST', `/api/admin/withdrawals/${withdrawalId}/reject`, { reason: 'no' }],
      ['GET', '/api/admin/plans'],
      ['POST', '/api/admin/plans', planBody],
      ['PUT', `/api/admin/plans/${planId}`, planBody],
      ['GET', '/api/admin/levels'],
      ['PUT', '/api/admin/levels', { rewards: [{ level: 1, rewardPercentage: 50 }] }],
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/contact-messages'],
      ['GET', '/api/admin/actions'],
    ];
    for (const [method, url, body] of routes) {
      expect((await api(t, method, url, member.token, body)).status, `${method} ${url}`).toBe(404);
    }
    expect(await memberStatus(member.token)).toMatchObject({ status: 'PENDING', txHash: null });
    const [logged] = await t.deps.db.select({ n: count() }).from(adminActions);
    expect(logged?.n).toBe(0);
    const levels = await platform(t, '/level-income/level-reward', member.token);
    expect((levels.body.data as { rewards: unknown[] }).rewards).toHaveLength(5);
  });

  it('lists pending withdrawals and approves one as SENT with its hash, which the member sees', async () => {
    const { member, withdrawalId } = await memberWithWithdrawal('20');
    const pending = await api(t, 'GET', '/api/admin/withdrawals?status=PENDING', admin.token);
    expect(records(pending.body)).toContainEqual(
      expect.objectContaining({ id: withdrawalId, status: 'PENDING', email: member.email, amount: '20' }),
    );
    const res = await api(t, 'POST', `/api/admin/withdrawals/${withdrawalId}/approve`, admin.token, {
      txHash: HASH.toUpperCase().replace('0X', '0x'),
    });
    writes += 1;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message: m.withdrawalApproved,
      withdrawal: { status: 'SENT', txHash: HASH },
    });
    expect(await memberStatus(member.token)).toMatchObject({
      id: withdrawalId,
      status: 'SENT',
      txHash: HASH,
    });
    expect(await lastAction()).toMatchObject({
      action: 'withdrawal.approve',
      target: withdrawalId,
      adminEmail: 'admin@example.com',
      createdAt: expect.any(String),
    });
    const sent = await api(t, 'GET', '/api/admin/withdrawals?status=SENT', admin.token);
    expect(records(sent.body).map((r) => r.id)).toContain(withdrawalId);
    expect(Number((await findWallet(t.deps.db, member.id))?.usdtRewardToken)).toBe(30);
  });

  it('rejects a withdrawal, refunds usdtRewardToken through the ledger, and the member sees REJECTED', async () => {
    const { member, withdrawalId } = await memberWithWithdrawal('35.5');
    expect(Number((await findWallet(t.deps.db, member.id))?.usdtRewardToken)).toBe(14.5);
    const res = await api(t, 'POST', `/api/admin/withdrawals/${withdrawalId}/reject`, admin.token, {
      reason: 'address on a sanctions list',
    });
    writes += 1;
    expect(res.body).toMatchObject({ message: m.withdrawalRejected, withdrawal: { status: 'REJECTED' } });
    expect(Number((await findWallet(t.deps.db, member.id))?.usdtRewardToken)).toBe(50);
    expect(await ledgerProblems(t, member.id)).toEqual([]);
    // The member reads why, and the fee that was to be kept, not only the administrator.
    expect(await memberStatus(member.token)).toMatchObject({
      id: withdrawalId,
      status: 'REJECTED',
      rejectReason: 'address on a sanctions list',
      fee: '1',
    });
    const page = (await platform(t, '/withdraw/list', member.token, list)).body.data as Record<
      string,
      unknown
    >;
    expect(page.withdrawFee).toBe('1');
    expect(await lastAction()).toMatchObject({ action: 'withdrawal.reject', target: withdrawalId });
    const [row] = await t.deps.db.select().from(withdrawals).where(eq(withdrawals.id, withdrawalId));
    expect(row).toMatchObject({ rejectReason: 'address on a sanctions list', decidedBy: admin.id });
  });

  it('decides a withdrawal once, answers 404 for an unknown one, and wants a hash without a hot wallet', async () => {
    const { member, withdrawalId } = await memberWithWithdrawal('10');
    const url = (action: string, id = withdrawalId) => `/api/admin/withdrawals/${id}/${action}`;
    const noHash = await api(t, 'POST', url('approve'), admin.token, {});
    expect([noHash.status, noHash.body.message]).toEqual([400, m.txHashRequired]);
    const badHash = await api(t, 'POST', url('approve'), admin.token, { txHash: '0x12' });
    expect(badHash.status).toBe(400);
    expect((await api(t, 'POST', url('reject'), admin.token, {})).status).toBe(200);
    writes += 1;
    const again = await api(t, 'POST', url('approve'), admin.token, { txHash: HASH });
    expect([again.status, again.body.message]).toEqual([409, m.withdrawalNotPending]);
    expect((await api(t, 'POST', url('reject'), admin.token, {})).status).toBe(409);
    expect(Number((await findWallet(t.deps.db, member.id))?.usdtRewardToken)).toBe(50); // refunded once
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await api(t, 'POST', url('approve', unknown), admin.token, { txHash: HASH })).status).toBe(404);
    expect((await api(t, 'POST', url('reject', 'not-a-uuid'), admin.token, {})).status).toBe(404);
  });

  it('creates and edits plans; a deactivated plan leaves the member list and cannot be bought', async () => {
    const created = await api(t, 'POST', '/api/admin/plans', admin.token, planBody);
    writes += 1;
    expect(created.body).toMatchObject({
      message: m.planSaved,
      plan: { name: 'Admin Plan', usdtToken: '40' },
    });
    const plan = created.body.plan as Row;
    expect(await lastAction()).toMatchObject({ action: 'plan.create', target: plan.id });

    const buyer = await signUp(t);
    await fund(t, buyer.id, 'usdtToken', '100');
    const offered = async () =>
      ((await platform(t, '/subscription/plans', buyer.token)).body.data as { plans: Row[] }).plans.map(
        (p) => p.id,
      );
    expect(await offered()).toContain(plan.id);

    const edited = await api(t, 'PUT', `/api/admin/plans/${plan.id}`, admin.token, {
      ...planBody,
      name: 'Admin Plan 2',
      availableCredit: '120',
      active: false,
    });
    writes += 1;
    expect(edited.body.plan).toMatchObject({ name: 'Admin Plan 2', availableCredit: '120', active: false });
    expect(await lastAction()).toMatchObject({ action: 'plan.update', target: plan.id });
    expect(await offered()).not.toContain(plan.id);
    const all = await api(t, 'GET', '/api/admin/plans', admin.token);
    expect((all.body.plans as Row[]).map((p) => p.id)).toContain(plan.id);
    const bought = await platform(t, '/subscription/create', buyer.token, { planId: plan.id });
    expect([bought.status, bought.body.msg]).toEqual([400, m.planInactive]);
    // An edit that leaves `active` out keeps the plan inactive.
    const renamed = await api(t, 'PUT', `/api/admin/plans/${plan.id}`, admin.token, {
      ...planBody,
      name: 'Admin Plan 3',
    });
    writes += 1;
    expect(renamed.body.plan).toMatchObject({ name: 'Admin Plan 3', active: false });

    const invalid = await api(t, 'POST', '/api/admin/plans', admin.token, { ...planBody, usdtToken: '0' });
    expect([invalid.status, invalid.body.message]).toEqual([400, m.planNeedsPrice]);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await api(t, 'PUT', `/api/admin/plans/${missing}`, admin.token, planBody)).status).toBe(404);
  });

  it('lists users with their referrer and balances, and the contact messages', async () => {
    const referrer = await signUp(t);
    const member = await signUp(t, referrer.userCode);
    await fund(t, member.id, 'ifcToken', '7.25');
    const users = await api(t, 'GET', '/api/admin/users', admin.token);
    expect(records(users.body)).toContainEqual(
      expect.objectContaining({
        id: member.id,
        email: member.email,
        referredByUserCode: referrer.userCode,
        ifcToken: '7.25',
        availableCredit: '100',
      }),
    );
    const sent = await call(t, 'POST', '/api/contact', {
      name: 'Ada',
      contactNo: '+15550001111',
      email: 'ada@example.com',
      text: 'Where is my withdrawal?',
    });
    expect(sent.status).toBe(200);
    const messages = await api(t, 'GET', '/api/admin/contact-messages', admin.token);
    expect(records(messages.body)[0]).toMatchObject({
      email: 'ada@example.com',
      text: 'Where is my withdrawal?',
    });
  });

  it('replaces the level table, and the next subscription pays by the new table', async () => {
    const bad = await api(t, 'PUT', '/api/admin/levels', admin.token, {
      rewards: [{ level: 2, rewardPercentage: 5 }],
    });
    expect([bad.status, bad.body.message]).toEqual([400, m.levelsInvalid]);

    const saved = await api(t, 'PUT', '/api/admin/levels', admin.token, {
      rewards: [
        { level: 1, rewardPercentage: 20 },
        { level: 2, rewardPercentage: 0 },
        { level: 3, rewardPercentage: 7.5 },
      ],
    });
    writes += 1;
    expect(saved.body).toMatchObject({ message: m.levelsSaved, rewards: [{ rewardPercentage: 20 }, {}, {}] });
    expect(await lastAction()).toMatchObject({ action: 'levels.replace', target: null });

    const top = await signUp(t);
    const mid = await signUp(t, top.userCode);
    const parent = await signUp(t, mid.userCode);
    const buyer = await signUp(t, parent.userCode);
    await fund(t, buyer.id, 'usdtToken', '100');
    const starter = ((await platform(t, '/subscription/plans', buyer.token)).body.data as { plans: Row[] })
      .plans[0];
    expect((await platform(t, '/subscription/create', buyer.token, { planId: starter?.id })).body.code).toBe(
      '0000',
    );
    const rewardOf = async (id: string) => Number((await findWallet(t.deps.db, id))?.usdtRewardToken ?? 0);
    expect([await rewardOf(parent.id), await rewardOf(mid.id), await rewardOf(top.id)]).toEqual([20, 0, 7.5]);
    const history = await platform(t, '/level-income/list', parent.token, list);
    expect(records(history.body.data as Record<string, unknown>)).toEqual([
      expect.objectContaining({ amount: '20', percentage: 20, level: 1, fromUserName: buyer.username }),
    ]);
  });

  it('has one log entry, with who and when, for every admin write', async () => {
    const log = await api(t, 'GET', '/api/admin/actions', admin.token);
    expect(log.body.total).toBe(writes);
    for (const entry of records(log.body) as unknown as Record<string, unknown>[]) {
      expect(entry).toMatchObject({ adminUserId: admin.id, adminEmail: 'admin@example.com' });
      expect(Number.isNaN(Date.parse(String(entry.createdAt)))).toBe(false);
    }
  });
});
