import { bybit } from 'ccxt';
import type { RequestBudget } from '../budget/request-budget';
import type { BudgetIdentity } from './binance-budget';
import {
  answeredRequest,
  budgetAccountOf,
  headerOf,
  processRequestBudget,
  spendBeforeSending,
} from './budget-spending';
import { BYBIT_IP_BAN_MS, BYBIT_UID_PAUSE_MS, type BybitLimits, bybitCosts, bybitKeys } from './bybit-budget';

export interface BybitClientOptions {
  apiKey?: string;
  secret?: string;
  /** Bybit's testnet (api-testnet.bybit.com). */
  sandbox?: boolean;
  /** Replaces the origin of every Bybit REST URL (tests: the loopback fake server). */
  baseUrl?: string;
  /** The IP and UID budgets (back-offs are always honoured). Default true; tests turn it off. */
  enableRateLimit?: boolean;
  /** The request budget every client spends (default: this process's own, in memory); tests pass their own. */
  budget?: RequestBudget;
  /** The egress IP's name in the budget keys (`EXCHANGE_EGRESS`). Default `default`. */
  egress?: string;
  /** The IP budget's windows when they are not Bybit's defaults (tests). */
  limits?: Partial<BybitLimits>;
  /** Request timeout in ms. Default 10,000. */
  timeoutMs?: number;
  /** X-BAPI-RECV-WINDOW of signed requests in ms (default 5,000); tests shorten it. */
  recvWindowMs?: number;
}

/** [guide] "Integration Guidance": X-BAPI-RECV-WINDOW is optional, "default value is 5,000". */
export const BYBIT_RECV_WINDOW_MS = 5000;

/**
 * How long after an order call that ended without a clear answer the order may still reach Bybit's engine:
 * a request is taken while "server_time - recv_window <= timestamp < server_time + 1000" ([guide]), so a
 * request stamped at most when the call ended is dead recv_window later, plus the 1000 ms our clock may lead
 * Bybit's. After that, "no such order" is final.
 */
export function bybitLateOrderWindowMs(options: Pick<BybitClientOptions, 'recvWindowMs'>): number {
  return (options.recvWindowMs ?? BYBIT_RECV_WINDOW_MS) + 1000;
}

/** Bybit's refusal as it sent it: `retCode` and `retMsg`, before ccxt rewords it into one of its classes. */
export class BybitApiError extends Error {
  override readonly name = 'BybitApiError';
  constructor(
    readonly httpStatus: number,
    readonly retCode: number,
    readonly retMsg: string,
  ) {
    super(`HTTP ${httpStatus} ${retCode} ${retMsg}`);
  }
}

/**
 * One ccxt `bybit` client for an account: V5 endpoints for spot and linear alike. Markets are loaded for
 * spot and linear only (ccxt would also load inverse and option markets), and currencies not at all (a
 * private call the port never needs).
 */
export function createBybitClient(options: BybitClientOptions): bybit {
  const client = new bybit({
    apiKey: options.apiKey,
    secret: options.secret,
    // Always on: the budget below replaces ccxt's throttle and honours back-offs even when weights are off.
    enableRateLimit: true,
    timeout: options.timeoutMs ?? 10_000,
    options: {
      fetchMarkets: { types: ['spot', 'linear'] },
      recvWindow: options.recvWindowMs ?? BYBIT_RECV_WINDOW_MS,
    },
  });
  // ccxt's loadMarkets would first call fetchCurrencies, a signed GET /v5/asset/coin/query-info the port
  // never needs (its bybit class does not read options.fetchCurrencies).
  (client.has as Record<string, unknown>).fetchCurrencies = false;
  if (options.sandbox) client.setSandboxMode(true);
  const budget = options.budget ?? processRequestBudget;
  const who: BudgetIdentity = {
    egress: options.egress ?? 'default',
    account: budgetAccountOf(options.apiKey),
  };
  const spending = { limits: options.limits ?? {}, weighted: options.enableRateLimit ?? true };
  spendBeforeSending(client, (request) =>
    budget.take({ account: who.account, costs: bybitCosts(request, who, spending) }),
  );
  keepBybitErrors(client, { budget, who });
  if (options.baseUrl) {
    const api = client.urls.api as Record<string, string>;
    for (const key of Object.keys(api)) {
      const value = api[key];
      if (typeof value === 'string')
        api[key] = value.replace(/^https?:\/\/[^/]+/, options.baseUrl.replace(/\/$/, ''));
    }
  }
  return client;
}

/**
 * Every V5 body with a non-zero `retCode` is thrown as a `BybitApiError` first, its code kept. A back-off answer
 * first pauses the budget it broke, in every process.
 */
function keepBybitErrors(client: bybit, spender: { budget: RequestBudget; who: BudgetIdentity }): void {
  const original = client.handleErrors.bind(client);
  client.handleErrors = ((...args: Parameters<bybit['handleErrors']>) => {
    const [httpStatus, , url, method, headers, , response, , requestBody] = args;
    const body = response as { retCode?: unknown; retMsg?: unknown; time?: unknown } | undefined;
    const retCode = body?.retCode === undefined ? undefined : Number(body.retCode);
    const pause = backOffOf(Number(httpStatus), retCode, headers, body?.time);
    if (pause) {
      const keys = bybitKeys(answeredRequest(url, method, requestBody, '/v5/'), spender.who);
      // Never blocks the answer's handling: the pause is set in this process at once, in Redis meanwhile.
      void spender.budget.backOff(keys[pause.budget], pause.ms).catch(() => undefined);
    }
    if (retCode !== undefined && retCode !== 0)
      throw new BybitApiError(Number(httpStatus), retCode, String(body?.retMsg ?? ''));
    return original(...args);
  }) as bybit['handleErrors'];
}

/**
 * Which budget a back-off answer pauses, and for how long ([rate-limit]): HTTP 403 ("403, access too frequent":
 * the IP went past its limit) and 10018 ("Exceeded the IP Rate Limit", [error] "Error Code") pause the IP's
 * budget for the 10 minutes Bybit asks; 10006 ("Too many visits!") pauses the UID's budget of that endpoint
 * until X-Bapi-Limit-Reset-Timestamp, "the timestamp indicating when your request limit resets", measured
 * from the answer's own `time` (Bybit's clock, not ours).
 */
function backOffOf(
  status: number,
  retCode: number | undefined,
  headers: unknown,
  serverTime: unknown,
): { budget: 'ip' | 'uid'; ms: number } | undefined {
  if (status === 403 || retCode === 10018) return { budget: 'ip', ms: BYBIT_IP_BAN_MS };
  if (retCode !== 10006) return undefined;
  const resetAt = Number(headerOf(headers, 'x-bapi-limit-reset-timestamp'));
  const now = Number(serverTime);
  const ms =
    Number.isFinite(resetAt) && Number.isFinite(now) && resetAt > now ? resetAt - now : BYBIT_UID_PAUSE_MS;
  return { budget: 'uid', ms: Math.min(ms, BYBIT_IP_BAN_MS) };
}
