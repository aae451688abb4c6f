import type { Tx } from '@gridbot/db';
import {
  platformMessages as m,
  money,
  type PlatformPage,
  type SubscriptionPlan,
  type SubscriptionRecord,
} from '@gridbot/shared';
import Decimal from 'decimal.js';
import type { PlatformDeps } from '../../config/platform-deps';
import { HttpError } from '../../lib/http-error';
import { applyChanges, ensureWallet, InsufficientBalanceError } from '../credit';
import { offsetOf, toPage } from './paging';
import type { PlanRow } from './platform.repo';
import * as repo from './platform.repo';

const TOKEN_NAME = { usdtToken: 'USDT', ifcToken: 'IFC', ifxToken: 'IFX' } as const;
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
  return (await repo.activePlans(deps.db)).map(toPlan);
}

export async function listSubscriptions(
  deps: PlatformDeps,
  userId: string,
  input: ListPage,
): Promise<PlatformPage<SubscriptionRecord>> {
  const offset = offsetOf(input.page, input.limit);
  const { rows, total } = await repo.subscriptionsPage(deps.db, userId, offset, input.limit);
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
  return toPage(records, total, input.page, input.limit);
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
      const sub = await repo.insertActiveSubscription(tx, userId, plan);
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
        deps.clock.now(),
      );
      // Only the newest purchase is Active (docs/spec/02-bots-wallet-account.md §4); earlier ones become In-Active.
      await repo.deactivateOtherSubscriptions(tx, userId, sub.id);
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
  const plan = await repo.planById(deps.db, planId);
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
  const levels = await repo.referralLevelsInOrder(tx);
  const seen = new Set([buyerId]);
  let childId = buyerId;
  for (const level of levels) {
    const ancestorId = await repo.referrerOf(tx, childId);
    if (!ancestorId || seen.has(ancestorId)) return;
    seen.add(ancestorId);
    const amount = price.times(level.rewardPercentage).dividedBy(100).toDecimalPlaces(8, Decimal.ROUND_DOWN);
    if (amount.gt(0)) {
      await ensureWallet(tx, ancestorId, deps.platform.freeCredit);
      const rewardId = await repo.insertReferralReward(tx, {
        userId: ancestorId,
        fromUserId: buyerId,
        subscriptionId: subId,
        level: level.level,
        percentage: level.rewardPercentage,
        amount: amount.toFixed(),
      });
      await applyChanges(
        tx,
        ancestorId,
        [{ account: 'usdtRewardToken', delta: amount.toFixed() }],
        'referral_reward',
        rewardId ?? subId,
        deps.clock.now(),
      );
    }
    childId = ancestorId;
  }
}
