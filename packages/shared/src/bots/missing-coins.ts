/**
 * A spot bot on Binance whose lots hold more coin than the account (the user sold it outside the platform) is
 * paused with this reason; its Resume then asks to re-buy the missing quantity or drop the missing lots.
 */

/** The pause reason shown on the bot's page. */
export function missingCoinsReason(held: string, lots: string, asset: string): string {
  return `Your Binance account holds ${held} ${asset}, less than the ${lots} ${asset} of this bot's open grids: ${SOLD_OUTSIDE}`;
}

const SOLD_OUTSIDE = 'they were sold outside the platform.';

/** The pause reason when Binance did not answer while the user's choice was being carried out. */
export const missingCoinsUnsettled =
  'Binance did not answer while the bot settled the coins sold outside the platform: resume to try again.';

/** Whether a bot was paused because its coins were sold outside the platform (Resume then asks what to do). */
export function isMissingCoinsHalt(haltReason: string | null): boolean {
  return (haltReason?.endsWith(SOLD_OUTSIDE) ?? false) || haltReason === missingCoinsUnsettled;
}
