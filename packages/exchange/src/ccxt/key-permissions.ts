/**
 * What a Binance API key may do, from "Get API Key Permission (USER_DATA)": `GET /sapi/v1/account/apiRestrictions`
 * (Binance Wallet API, Account). Only the rights the platform decides on are kept.
 */
export interface ApiKeyPermissions {
  /** "ipRestrict": the key works only from the IPs its owner listed. */
  ipRestrict: boolean;
  enableReading: boolean;
  /** "enableSpotAndMarginTrading": spot orders. */
  enableSpotAndMarginTrading: boolean;
  /** "enableFutures": USDⓈ-M futures orders. */
  enableFutures: boolean;
  /** "enableWithdrawals": the key could move funds off the exchange. */
  enableWithdrawals: boolean;
}

/** The answer's booleans; a field Binance leaves out counts as not granted (the safe reading). */
export function keyPermissionsOf(raw: unknown): ApiKeyPermissions {
  const body = (raw ?? {}) as Record<string, unknown>;
  const flag = (name: string) => body[name] === true || body[name] === 'true';
  return {
    ipRestrict: flag('ipRestrict'),
    enableReading: flag('enableReading'),
    enableSpotAndMarginTrading: flag('enableSpotAndMarginTrading'),
    enableFutures: flag('enableFutures'),
    enableWithdrawals: flag('enableWithdrawals'),
  };
}
