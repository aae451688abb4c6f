import { money, type SubscriptionStatus } from '@gridbot/shared';

/**
 * What the Subscription page's two headline figures mean (docs/product.md §5, Profit limit): a member's
 * profit limit falls by each profit a bot books; at zero no new bot or cycle starts and running bots open no
 * new cycles until the member subscribes again. A new account starts with a free limit and no plan.
 */
export const PROFIT_LIMIT_NOTE =
  'The profit your bots may still book. Each booked profit lowers it; at $0 no new bot or cycle starts and running bots open no new cycles until you subscribe again.';

/** Plans add to the limit rather than replace it. */
export const PLANS_NOTE = 'A plan adds its profit limit to what you have left.';

/** The status card's line: why the status reads as it does, and what to do about it. */
export function subscriptionStatusNote(
  status: SubscriptionStatus,
  availableCredit: string | undefined,
): string | null {
  if (status === 'Pending') return null;
  if (status === 'Active') return 'You bought a plan and have profit limit left.';
  let used = false;
  try {
    used = money(availableCredit ?? '0').lte(0);
  } catch {
    used = false;
  }
  return used
    ? 'Your profit limit is used up: subscribe to a plan to start bots and cycles again.'
    : 'No plan bought: your bots trade on the profit limit you have left (new accounts start with a free one).';
}
