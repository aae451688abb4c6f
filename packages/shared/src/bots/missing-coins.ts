/**
 * A spot bot or cycle on Binance whose lots hold more coin than the account (the user sold it outside the
 * platform) is paused with this reason; its Resume then asks to re-buy the missing quantity or drop the
 * missing lots.
 */

/** The pause reason shown on the bot's page (`holder`: what holds the lots, a bot's grids or a cycle). */
export function missingCoinsReason(
  held: string,
  lots: string,
  asset: string,
  holder: 'bot' | 'cycle' = 'bot',
): string {
  const of = holder === 'cycle' ? "this cycle's holding" : "this bot's open grids";
  return `Your Binance account holds ${held} ${asset}, less than the ${lots} ${asset} of ${of}: ${SOLD_OUTSIDE}`;
}

const SOLD_OUTSIDE = 'they were sold outside the platform.';

/** The pause reason when Binance did not answer while the user's choice was being carried out. */
export const missingCoinsUnsettled =
  'Binance did not answer while the bot settled the coins sold outside the platform: resume to try again.';

const REBUY_FAILED = 'Buying the missing coins again failed';

/** The pause reason when the exchange refused the re-buy the user chose: Resume asks again. */
export function rebuyFailedReason(reason: string): string {
  return `${REBUY_FAILED}: ${reason}`;
}

/** Whether a bot was paused because its coins were sold outside the platform (Resume then asks what to do). */
export function isMissingCoinsHalt(haltReason: string | null): boolean {
  if (haltReason === null) return false;
  return (
    haltReason.endsWith(SOLD_OUTSIDE) ||
    haltReason === missingCoinsUnsettled ||
    haltReason.startsWith(REBUY_FAILED)
  );
}
