import { parseFlag } from '@gridbot/shared';

/** Build-time settings. Getters, so tests can switch a flag with vi.stubEnv. */
export const env = {
  /** docs/spec/01-core-screens.md §2: subscription, deposit, withdraw and referral exist only when the flag equals 'true'. */
  get subscriptionEnabled(): boolean {
    return parseFlag(import.meta.env.VITE_SUBSCRIPTION_ENABLED, true);
  },
};
