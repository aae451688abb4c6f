import { withdrawals } from '@gridbot/db';
import { money } from '@gridbot/shared';
import Decimal from 'decimal.js';
import { asc, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { ledgerProblems } from '../platform/testing/ledger-checks';
import { fund, platform, signUp } from '../platform/testing/platform-fixtures';
import { type Account, ensureWallet, findWallet } from './ledger.repo';

// After random subscribe / reward / swap / withdraw / reject sequences every balance
// equals its ledger and none is negative. A plain model of the wallets also predicts which requests succeed.

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const LEVELS = ['10', '5', '3', '2', '1'];
const ACCOUNTS: Account[] = ['usdtToken', 'ifcToken', 'ifxToken', 'usdtRewardToken', 'availableCredit'];
type Model = Map<string, Record<Account, Decimal>>;
interface Plan {
  id: string;
  usdtToken: string;
  ifcToken: string;
  ifxToken: string;
  availableCredit: string;
}
interface Member {
  id: string;
  token: string;
  /** Index of the referrer in the member list, or -1. */
  parent: number;
}

const cents = (min: number, max: number) => fc.integer({ min, max }).map((c) => (c / 100).toFixed(2));
const member = fc.nat({ max: 4 });
// Weighted so that purchases and admin decisions, which need money and pending withdrawals first, happen
// in every run of the suite, not only in lucky ones.
const action = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('deposit' as const),
      user: member,
      account: fc.constantFrom<Account>('usdtToken', 'usdtToken', 'ifcToken', 'ifxToken', 'usdtRewardToken'),
      amount: cents(1, 25_000),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('subscribe' as const), user: member, plan: fc.nat({ max: 2 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('swap' as const), user: member, amount: cents(1, 6_000) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('withdraw' as const), user: member, amount: cents(500, 6_000) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reject' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('approve' as const), pick: fc.nat() }) },
);
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

describe('platform ledger (property)', () => {
  let t: TestApp;
  let admin: string;
  let members: Member[];
  let plans: Plan[];
  /** Successful requests per kind, so the property is known to exercise every path. */
  const done = new Map<string, number>();
  const count = (kind: string) => done.set(kind, (done.get(kind) ?? 0) + 1);

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signUp(t, undefined, 'admin@example.com')).token;
    // root ← a ← b ← c, and root ← d: a chain deeper than one level and a second branch.
    const root = await signUp(t);
    const a = await signUp(t, root.userCode);
    const b = await signUp(t, a.userCode);
    const c = await signUp(t, b.userCode);
    const d = await signUp(t, root.userCode);
    members = [root, a, b, c, d].map((u, i) => ({
      id: u.id,
      token: u.token,
      parent: [-1, 0, 1, 2, 0][i] ?? -1,
    }));
    const mixed = await call(
      t,
      'POST',
      '/api/admin/plans',
      { name: 'Mixed', usdtToken: '20', ifcToken: '10.5', ifxToken: '5', availableCredit: '50' },
      { token: admin },
    );
    const seeded = (await call(t, 'GET', '/api/admin/plans', undefined, { token: admin })).body
      .plans as (Plan & {
      name: string;
    })[];
    const byName = (name: string) => seeded.find((p) => p.name === name) as Plan;
    plans = [byName('Starter'), mixed.body.plan as Plan, byName('IFC Pro')];
  });
  afterAll(() => t.close());

  async function snapshot(): Promise<Model> {
    const model: Model = new Map();
    for (const m of members) {
      await ensureWallet(t.deps.db, m.id, t.deps.config.platform?.freeCredit ?? '100');
      const w = await findWallet(t.deps.db, m.id);
      if (!w) throw new Error('no wallet');
      model.set(m.id, Object.fromEntries(ACCOUNTS.map((k) => [k, money(w[k])])) as Record<Account, Decimal>);
    }
    return model;
  }

  const walletOf = (model: Model, id: string) => model.get(id) as Record<Account, Decimal>;

  /** Runs one action through the API and applies its expected effect to the model. */
  async function run(model: Model, a: Action): Promise<void> {
    if (a.kind === 'deposit') {
      const u = members[a.user] as Member;
      await fund(t, u.id, a.account, a.amount);
      walletOf(model, u.id)[a.account] = walletOf(model, u.id)[a.account].plus(a.amount);
    } else if (a.kind === 'subscribe') {
      const u = members[a.user] as Member;
      const plan = plans[a.plan] as Plan;
      const w = walletOf(model, u.id);
      const affordable =
        w.usdtToken.gte(plan.usdtToken) && w.ifcToken.gte(plan.ifcToken) && w.ifxToken.gte(plan.ifxToken);
      const res = await platform(t, '/subscription/create', u.token, { planId: plan.id });
      expect(res.body.code, JSON.stringify(res.body)).toBe(affordable ? '0000' : '4000');
      if (!affordable) return;
      count('subscribe');
      if (u.parent >= 0 && money(plan.usdtToken).gt(0)) count('referral reward');
      w.usdtToken = w.usdtToken.minus(plan.usdtToken);
      w.ifcToken = w.ifcToken.minus(plan.ifcToken);
      w.ifxToken = w.ifxToken.minus(plan.ifxToken);
      w.availableCredit = w.availableCredit.plus(plan.availableCredit);
      let ancestor = u.parent;
      for (const pct of LEVELS) {
        if (ancestor < 0) break;
        const earner = members[ancestor] as Member;
        const reward = money(plan.usdtToken).times(pct).dividedBy(100).toDecimalPlaces(8, Decimal.ROUND_DOWN);
        walletOf(model, earner.id).usdtRewardToken = walletOf(model, earner.id).usdtRewardToken.plus(reward);
        ancestor = earner.parent;
      }
    } else if (a.kind === 'swap') {
      const u = members[a.user] as Member;
      const w = walletOf(model, u.id);
      const res = await platform(t, '/swap/usdt-reward/create', u.token, { amount: a.amount });
      const allowed = w.usdtRewardToken.gte(a.amount);
      expect(res.body.code, JSON.stringify(res.body)).toBe(allowed ? '0000' : '4000');
      if (!allowed) return;
      count('swap');
      w.usdtRewardToken = w.usdtRewardToken.minus(a.amount);
      w.usdtToken = w.usdtToken.plus(a.amount);
    } else if (a.kind === 'withdraw') {
      const u = members[a.user] as Member;
      const w = walletOf(model, u.id);
      const res = await platform(t, '/withdraw/create', u.token, { amount: a.amount, toAddress: ADDRESS });
      const allowed = money(a.amount).gte(10) && w.usdtRewardToken.gte(a.amount);
      expect(res.body.code, JSON.stringify(res.body)).toBe(allowed ? '0000' : '4000');
      if (!allowed) return;
      count('withdraw');
      w.usdtRewardToken = w.usdtRewardToken.minus(a.amount);
    } else {
      const pending = await t.deps.db
        .select()
        .from(withdrawals)
        .where(eq(withdrawals.status, 'PENDING'))
        .orderBy(asc(withdrawals.createdAt), asc(withdrawals.id));
      const row = pending[a.pick % Math.max(1, pending.length)];
      if (!row) return;
      const body = a.kind === 'approve' ? { txHash: `0x${'ab'.repeat(32)}` } : { reason: 'property test' };
      const res = await call(t, 'POST', `/api/admin/withdrawals/${row.id}/${a.kind}`, body, { token: admin });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      count(a.kind);
      if (a.kind === 'reject') {
        walletOf(model, row.userId).usdtRewardToken = walletOf(model, row.userId).usdtRewardToken.plus(
          row.amount,
        );
      }
    }
  }

  it('keeps every balance equal to its ledger, never negative, and as a plain model predicts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 20 }), async (actions) => {
        const model = await snapshot();
        for (const a of actions) await run(model, a);
        for (const m of members) {
          expect(await ledgerProblems(t, m.id)).toEqual([]);
          const w = await findWallet(t.deps.db, m.id);
          for (const k of ACCOUNTS)
            expect(`${k} ${money(w?.[k] ?? '0').toFixed()}`).toBe(
              `${k} ${walletOf(model, m.id)[k].toFixed()}`,
            );
        }
      }),
      // A fixed seed (LEDGER_SEED to try another): the check below that every kind of operation ran at least
      // once must not depend on the luck of a run (an unseeded run left out "reject" now and then).
      { numRuns: 40, endOnFailure: true, seed: Number(process.env.LEDGER_SEED ?? 20261127) },
    );
    expect([...done.keys()].sort()).toEqual([
      'approve',
      'referral reward',
      'reject',
      'subscribe',
      'swap',
      'withdraw',
    ]);
  }, 120_000);
});
