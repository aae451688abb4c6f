import type { FakeRoute } from './fake-binance-routes';

/**
 * The rights of the fake's API key, as "Get API Key Permission (USER_DATA)" answers them
 * (Binance Wallet API, Account: `GET /sapi/v1/account/apiRestrictions`, weight(IP) 1). Tests change them
 * to stand for the owner editing the key on Binance's API Management page.
 */
export interface FakeKeyPermissions {
  ipRestrict: boolean;
  enableReading: boolean;
  enableSpotAndMarginTrading: boolean;
  enableFutures: boolean;
  enableWithdrawals: boolean;
  enableMargin: boolean;
  enableInternalTransfer: boolean;
  permitsUniversalTransfer: boolean;
}

/** A key made for trading bots: read, spot and futures, IP-restricted, no withdrawals. */
export const tradingKeyPermissions = (): FakeKeyPermissions => ({
  ipRestrict: true,
  enableReading: true,
  enableSpotAndMarginTrading: true,
  enableFutures: true,
  enableWithdrawals: false,
  enableMargin: false,
  enableInternalTransfer: false,
  permitsUniversalTransfer: false,
});

/**
 * `GET /sapi/v1/account/apiRestrictions`: SIGNED, parameters `recvWindow` (optional) and `timestamp`
 * (mandatory, checked with every SIGNED request), weight(IP) 1. The answer carries the key's creation
 * time and one boolean per right; "enableWithdrawals" notes that withdrawals can only be enabled on a key
 * with the IP Access Restriction filter, so the fake refuses that combination when a test sets it.
 */
export function keyPermissionRoute(permissions: () => FakeKeyPermissions, createTimeMs: number): FakeRoute {
  return {
    signed: true,
    required: [],
    weight: 1,
    handle: () => {
      const p = permissions();
      if (p.enableWithdrawals && !p.ipRestrict)
        throw new Error('Binance enables withdrawals only on an IP-restricted key (apiRestrictions docs)');
      return {
        ipRestrict: p.ipRestrict,
        createTime: createTimeMs,
        enableReading: p.enableReading,
        enableWithdrawals: p.enableWithdrawals,
        enableInternalTransfer: p.enableInternalTransfer,
        enableMargin: p.enableMargin,
        enableFutures: p.enableFutures,
        permitsUniversalTransfer: p.permitsUniversalTransfer,
        enableVanillaOptions: false,
        enableFixApiTrade: false,
        enableFixReadOnly: false,
        enableSpotAndMarginTrading: p.enableSpotAndMarginTrading,
        enablePortfolioMarginTrading: false,
      };
    },
  };
}

/**
 * A trading request with a key that lacks the right: Binance answers HTTP 401, code -2015 "Invalid
 * API-key, IP, or permissions for action." ([spot errors.md] -2015 REJECTED_MBX_KEY; the same code on
 * USDⓈ-M futures). Reading (account, orders) stays allowed while "enableReading" is on.
 */
export function permissionRefusal(target: string, permissions: FakeKeyPermissions) {
  const refused = { status: 401, code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' };
  const [method, path = ''] = target.split(' ');
  const trading = method === 'POST' || method === 'DELETE';
  if (trading && path.startsWith('/api/v3/') && !permissions.enableSpotAndMarginTrading) return refused;
  if (trading && path.startsWith('/fapi/') && !permissions.enableFutures) return refused;
  if (!permissions.enableReading) return refused;
  return undefined;
}
