import { type LevelReward, money, type PlatformPage, type RewardRecord } from '@gridbot/shared';
import type { PlatformDeps } from '../../config/platform-deps';
import { offsetOf, toPage } from './paging';
import * as repo from './platform.repo';
import type { ListPage } from './subscriptions.service';

/** 'Reward by Level' (docs/spec/01-core-screens.md Referral program). */
export async function levelRewards(deps: Pick<PlatformDeps, 'db'>): Promise<LevelReward[]> {
  const rows = await repo.referralLevelsInOrder(deps.db);
  return rows.map((r) => ({ level: r.level, rewardPercentage: Number(r.rewardPercentage) }));
}

/** 'Reward History': the signed-in user's rewards only, newest first. */
export async function rewardHistory(
  deps: PlatformDeps,
  userId: string,
  input: ListPage,
): Promise<PlatformPage<RewardRecord>> {
  const offset = offsetOf(input.page, input.limit);
  const { rows, total } = await repo.rewardsPage(deps.db, userId, offset, input.limit);
  const records = rows.map(({ reward, fromUserName }) => ({
    id: reward.id,
    amount: money(reward.amount).toFixed(),
    percentage: Number(reward.percentage),
    fromUserName,
    level: reward.level,
    createdAt: reward.createdAt.toISOString(),
  }));
  return toPage(records, total, input.page, input.limit);
}
