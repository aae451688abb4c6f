import {
  platformPlans,
  platformSubscriptions,
  referralLevels,
  referralRewards,
  type Tx,
  users,
} from '@gridbot/db';
import {
  platformMessages as m,
  money,
  type PlatformPage,
  type SubscriptionPlan,
  type SubscriptionRecord,
} from '@gridbot/shared';
import Decimal from 'decimal.js';
import { and, asc, count, desc, eq, ne } from 'drizzle-orm';
import { HttpError } from '../../lib/http-error';
import { applyChanges, ensureWallet, InsufficientBalanceError } from './ledger';
import { offsetOf, toPage } from './paging';
import type { PlatformDeps } from './platform-deps';

const TOKEN_NAME = { usdtToken: 'USDT', ifcToken: 'IFC', ifxToken: 'IFX' } as const;
type PlanRow = typeof platformPlans.$inferSelect;
export interface ListPage {
  limit: number;
  page: number;
}

export function toPlan(row: PlanRow): SubscriptionPlan {
  return {
    id: row.id,
    name: row.name,
    usdtToken: money(row.usdtToken).toFixed(),
    ifcToken: money(row.ifcToken).toFixed(),
    ifxToken: money(row.ifxToken).toFixed(),
    availableCredit: money(row.availableCredit).toFixed(),
    active: row.active,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Plans offered to members: active ones, in the administrator's order. */
export async function listPlans(deps: PlatformDeps): Promise<SubscriptionPlan[]> {
  const rows = await deps.db
    .select()
    .from(platformPlans)
    .where(eq(platformPlans.active, true))
    .orderBy(asc(platformPlans.sortOrder), asc(platformPlans.createdAt));
  return rows.map(toPlan);
}

export async function listSubscriptions(
  deps: PlatformDeps,
  userId: string,
  input: ListPage,
): Promise<PlatformPage<SubscriptionRecord>> {
  const where = eq(platformSubscriptions.userId, userId);
  const [rows, [total]] = await Promise.all([
    deps.db
      .select()
      .from(platformSubscriptions)
      .where(where)
      .orderBy(desc(platformSubscriptions.createdAt), desc(platformSubscriptions.id))
      .limit(input.limit)
      .offset(offsetOf(input.page, input.limit)),
    deps.db.select({ n: count() }).from(platformSubscriptions).where(where),
  ]);
  const records = rows.map((r) => ({
    id: r.id,
    planId: r.planId,
    planName: r.planName,
    usdtToken: money(r.usdtToken).toFixed(),
    ifcToken: money(r.ifcToken).toFixed(),
    ifxToken: money(r.ifxToken).toFixed(),
    availableCredit: money(r.availableCredit).toFixed(),
    status: r.status === 'Active' ? ('Active' as const) : ('In-Active' as const),
    createdAt: r.createdAt.toISOString(),
  }));
  return toPage(records, total?.n ?? 0, input.page, input.limit);
}

/**
 * Buys a plan: debits every token part of its price and adds its profit limit in one conditional
 * update (two concurrent purchases on one balance cannot both spend it), marks it the Active subscription,
 * and pays each referral ancestor its level's share of the USDT price — all in one transaction.
 */
export async function subscribe(deps: PlatformDeps, userId: string, planId: string) {
  const plan = await findPlan(deps, planId);
  await ensureWallet(deps.db, userId, deps.platform.freeCredit);
  try {
    return await deps.db.transaction(async (tx) => {
      const [sub] = await tx
        .insert(platformSubscriptions)
        .values({
          userId,
          planId: plan.id,
          planName: plan.name,
          usdtToken: plan.usdtToken,
          ifcToken: plan.ifcToken,
          ifxToken: plan.ifxToken,
          availableCredit: plan.availableCredit,
          status: 'Active',
        })
        .returning();
      if (!sub) throw new Error('subscription insert returned nothing');
      await applyChanges(
        tx,
        userId,
        [
          { account: 'usdtToken', delta: money(plan.usdtToken).neg().toFixed() },
          { account: 'ifcToken', delta: money(plan.ifcToken).neg().toFixed() },
          { account: 'ifxToken', delta: money(plan.ifxToken).neg().toFixed() },
          { account: 'availableCredit', delta: money(plan.availableCredit).toFixed() },
        ],
        'subscription',
        sub.id,
      );
      // Only the newest purchase is Active (docs/spec/02-bots-wallet-account.md §4); earlier ones become In-Active.
      await tx
        .update(platformSubscriptions)
        .set({ status: 'In-Active' })
        .where(
          and(
            eq(platformSubscriptions.userId, userId),
            eq(platformSubscriptions.status, 'Active'),
            ne(platformSubscriptions.id, sub.id),
          ),
        );
      await payReferralRewards(deps, tx, userId, sub.id, plan.usdtToken);
      return sub;
    });
  } catch (error) {
    if (error instanceof InsufficientBalanceError) {
      const token = TOKEN_NAME[error.account as keyof typeof TOKEN_NAME] ?? error.account;
      throw new HttpError(400, m.insufficientBalance(token, error.need, error.have));
    }
    throw error;
  }
}

async function findPlan(deps: PlatformDeps, planId: string): Promise<PlanRow> {
  if (!/^[0-9a-f-]{36}$/i.test(planId)) throw new HttpError(400, m.planUnknown);
  const [plan] = await deps.db.select().from(platformPlans).where(eq(platformPlans.id, planId));
  if (!plan) throw new HttpError(400, m.planUnknown);
  if (!plan.active) throw new HttpError(400, m.planInactive);
  return plan;
}

/**
 * docs/product.md §5: each ancestor up the referral chain earns its level's share in usdtRewardToken. The share is
 * of the USDT part of the price only: IFC and IFX have no USDT rate anywhere in the product documents (docs/spec, docs/product.md), and
 * converting them 1:1 would mint USDT rewards out of platform tokens, so a plan priced only in IFC or IFX
 * pays no referral reward. Changing that needs a rate source decided first.
 */
async function payReferralRewards(
  deps: PlatformDeps,
  tx: Tx,
  buyerId: string,
  subId: string,
  usdtPrice: string,
) {
  const price = money(usdtPrice);
  if (price.lte(0)) return;
  const levels = await tx.select().from(referralLevels).orderBy(asc(referralLevels.level));
  const seen = new Set([buyerId]);
  let childId = buyerId;
  for (const level of levels) {
    const [child] = await tx
      .select({ referredBy: users.referredBy })
      .from(users)
      .where(eq(users.id, childId));
    const ancestorId = child?.referredBy;
    if (!ancestorId || seen.has(ancestorId)) return;
    seen.add(ancestorId);
    const amount = price.times(level.rewardPercentage).dividedBy(100).toDecimalPlaces(8, Decimal.ROUND_DOWN);
    if (amount.gt(0)) {
      await ensureWallet(tx, ancestorId, deps.platform.freeCredit);
      const [reward] = await tx
        .insert(referralRewards)
        .values({
          userId: ancestorId,
          fromUserId: buyerId,
          subscriptionId: subId,
          level: level.level,
          percentage: level.rewardPercentage,
          amount: amount.toFixed(),
        })
        .returning({ id: referralRewards.id });
      await applyChanges(
        tx,
        ancestorId,
        [{ account: 'usdtRewardToken', delta: amount.toFixed() }],
        'referral_reward',
        reward?.id ?? subId,
      );
    }
    childId = ancestorId;
  }
}
