import {
  PLATFORM_TOKENS,
  type PlatformToken,
  type SessionUser,
  type SubscriptionPlan,
} from '@gridbot/shared';
import { formatAmount, isPositive, isShort } from '../lib/platform-format';

const PRICE_FIELD = { USDT: 'usdtToken', IFC: 'ifcToken', IFX: 'ifxToken' } as const satisfies Record<
  PlatformToken,
  keyof SubscriptionPlan & keyof SessionUser
>;

export interface PriceLine {
  token: PlatformToken;
  price: string;
  balance: string;
  short: boolean;
}

/** The tokens a plan charges (a zero price is not charged) with the user's balance of each. */
export function priceLines(plan: SubscriptionPlan, account: SessionUser): PriceLine[] {
  return PLATFORM_TOKENS.filter((token) => isPositive(plan[PRICE_FIELD[token]])).map((token) => {
    const price = plan[PRICE_FIELD[token]];
    const balance = account[PRICE_FIELD[token]] ?? '0';
    return { token, price, balance, short: isShort(balance, price) };
  });
}

/** '100.00 USDT + 50.00 IFC'. */
export function priceText(plan: Pick<SubscriptionPlan, 'usdtToken' | 'ifcToken' | 'ifxToken'>): string {
  const parts = PLATFORM_TOKENS.filter((token) => isPositive(plan[PRICE_FIELD[token]])).map(
    (token) => `${formatAmount(plan[PRICE_FIELD[token]])} ${token}`,
  );
  return parts.length ? parts.join(' + ') : 'Free';
}
