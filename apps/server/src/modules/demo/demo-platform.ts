import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../../app/deps';
import type { PlatformDeps } from '../../config/platform-deps';
import { platformDepsOf } from '../../config/platform-runtime';
import { hashPassword } from '../../lib/passwords';
import { newUserCode } from '../../lib/tokens';
import { type Account, applyChanges, ensureWallet } from '../credit';
import { findUserByEmail, insertUser, isUsernameTaken } from '../identity';
import { listPlans, subscribe } from '../platform';

/** A member the demo account referred; their purchase pays the demo its level-1 reward. */
export const DEMO_FRIEND = { email: 'demo-friend@gridbot.local', username: 'demofriend' } as const;

/** Opening platform balances, booked as 'seed' ledger rows so every balance still equals its ledger. */
async function seedBalances(deps: PlatformDeps, userId: string, amounts: Partial<Record<Account, string>>) {
  await ensureWallet(deps.db, userId, deps.platform.freeCredit);
  const changes = Object.entries(amounts).map(([account, delta]) => ({ account: account as Account, delta }));
  await deps.db.transaction((tx) => applyChanges(tx, userId, changes, 'seed', 'demo', deps.clock.now()));
}

/**
 * With subscriptions on, the demo account gets platform balances (500 USDT, 200 IFC), an Active
 * subscription to the first plan, and a referred friend whose purchase of the second plan paid the demo a
 * reward: Subscription, Referral Program and Withdraw all show data. Through the platform services, so
 * the ledger, reward history and profit limit are what a real member would have. No withdrawal is seeded:
 * an administrator with a hot wallet could otherwise pay one out.
 */
export async function seedDemoPlatform(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'>,
  demoUserId: string,
): Promise<void> {
  if (!deps.config.subscriptionEnabled) return;
  const pdeps = platformDepsOf(deps);
  const plans = await listPlans(pdeps);
  await seedBalances(pdeps, demoUserId, { usdtToken: '500', ifcToken: '200' });
  if (plans[0]) await subscribe(pdeps, demoUserId, plans[0].id);

  const friendsPlan = plans[1] ?? plans[0];
  const taken =
    (await findUserByEmail(deps.db, DEMO_FRIEND.email)) ||
    (await isUsernameTaken(deps.db, DEMO_FRIEND.username));
  if (!friendsPlan || taken) return;
  const friend = await insertUser(deps.db, {
    ...DEMO_FRIEND,
    contactNo: '+10000000001',
    passwordHash: await hashPassword(randomBytes(18).toString('base64url')), // nobody signs in as the friend
    userCode: newUserCode(),
    referredBy: demoUserId,
  });
  const { usdtToken, ifcToken, ifxToken } = friendsPlan;
  await seedBalances(pdeps, friend.id, { usdtToken, ifcToken, ifxToken });
  await subscribe(pdeps, friend.id, friendsPlan.id);
}
