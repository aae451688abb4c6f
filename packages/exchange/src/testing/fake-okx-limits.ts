import type { RollingLimits } from './fake-rolling-limits';

/**
 * OKX's rate limits as the double enforces them, from www.okx.com/docs-v5/en: [overview-rate-limits] "Public
 * unauthenticated REST rate limits are based on IP address", "Private REST rate limits are based on User ID",
 * for trading endpoints "Rate limits are defined on the Instrument ID level"; past a limit "the system returns
 * error code 50011 (Rate limit reached. Please refer to API documentation and throttle requests accordingly)",
 * HTTP 429 ([error-code] "REST API"). Each endpoint's "Rate Limit" and "Rate limit rule", in requests per 2
 * seconds: Place order, Cancel order, Get order details 60 (User ID + Instrument ID); Get order List, Get
 * transaction details (last 3 days) 60 (User ID); Get balance, Get positions, Get positions history 10; Get
 * account configuration 5; Get leverage, Set leverage 20; Set position mode 5 (User ID); Get ticker 20 (IP); Get
 * instruments 20 (IP + Instrument Type); Get system time 10 (IP). OKX does not say whether the 2 s roll; the
 * double lets them roll, the stricter reading.
 */
const OKX_LIMITS: Record<string, { limit: number; perIp?: boolean; by?: string }> = {
  'POST /api/v5/trade/order': { limit: 60, by: 'instId' },
  'POST /api/v5/trade/cancel-order': { limit: 60, by: 'instId' },
  'GET /api/v5/trade/order': { limit: 60, by: 'instId' },
  'GET /api/v5/trade/orders-pending': { limit: 60 },
  'GET /api/v5/trade/fills': { limit: 60 },
  'GET /api/v5/account/balance': { limit: 10 },
  'GET /api/v5/account/positions': { limit: 10 },
  'GET /api/v5/account/positions-history': { limit: 10 },
  'GET /api/v5/account/config': { limit: 5 },
  'GET /api/v5/account/leverage-info': { limit: 20 },
  'POST /api/v5/account/set-leverage': { limit: 20 },
  'POST /api/v5/account/set-position-mode': { limit: 5 },
  'GET /api/v5/market/ticker': { limit: 20, perIp: true },
  'GET /api/v5/public/instruments': { limit: 20, perIp: true, by: 'instType' },
  'GET /api/v5/public/time': { limit: 10, perIp: true },
};

const WINDOW_MS = 2_000;

/**
 * Counts a request against its endpoint's limit (per User ID for a signed one, per IP for public data): whether
 * it fits; true for an endpoint the table does not list.
 */
export function withinOkxLimit(
  limits: RollingLimits,
  userId: string | undefined,
  target: string,
  params: Record<string, unknown>,
): boolean {
  const rule = OKX_LIMITS[target];
  if (!rule) return true;
  const owner = rule.perIp ? 'ip' : `uid:${userId ?? ''}`;
  const scope = rule.by ? String(params[rule.by] ?? '') : '';
  return limits.hit(`${owner}|${target}|${scope}`, rule.limit, WINDOW_MS).ok;
}
