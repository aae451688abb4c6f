import { referralLevels, referralRewards, users } from '@gridbot/db';
import { type LevelReward, money, type PlatformPage, type RewardRecord } from '@gridbot/shared';
import { asc, count, desc, eq } from 'drizzle-orm';
import { offsetOf, toPage } from './paging';
import type { PlatformDeps } from './platform-deps';
import type { ListPage } from './subscriptions.service';

/** 'Reward by Level' (docs/spec/01-core-screens.md Referral program). */
export async function levelRewards(deps: Pick<PlatformDeps, 'db'>): Promise<LevelReward[]> {
  const rows = await deps.db.select().from(referralLevels).orderBy(asc(referralLevels.level));
  return rows.map((r) => ({ level: r.level, rewardPercentage: Number(r.rewardPercentage) }));
}

/** 'Reward History': the signed-in user's rewards only, newest first. */
export async function rewardHistory(
  deps: PlatformDeps,
  userId: string,
  input: ListPage,
): Promise<PlatformPage<RewardRecord>> {
  const where = eq(referralRewards.userId, userId);
  const [rows, [total]] = await Promise.all([
    deps.db
      .select({ reward: referralRewards, fromUserName: users.username })
      .from(referralRewards)
      .innerJoin(users, eq(users.id, referralRewards.fromUserId))
      .where(where)
      .orderBy(desc(referralRewards.createdAt), desc(referralRewards.id))
      .limit(input.limit)
      .offset(offsetOf(input.page, input.limit)),
    deps.db.select({ n: count() }).from(referralRewards).where(where),
  ]);
  const records = rows.map(({ reward, fromUserName }) => ({
    id: reward.id,
    amount: money(reward.amount).toFixed(),
    percentage: Number(reward.percentage),
    fromUserName,
    level: reward.level,
    createdAt: reward.createdAt.toISOString(),
  }));
  return toPage(records, total?.n ?? 0, input.page, input.limit);
}
