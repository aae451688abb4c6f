import { bybit } from 'ccxt';

export interface BybitClientOptions {
  apiKey?: string;
  secret?: string;
  /** Bybit's testnet (api-testnet.bybit.com). */
  sandbox?: boolean;
  /** Replaces the origin of every Bybit REST URL (tests: the loopback fake server). */
  baseUrl?: string;
  /** ccxt's own request throttling. Default true. */
  enableRateLimit?: boolean;
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
    enableRateLimit: options.enableRateLimit ?? true,
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
  keepBybitErrors(client);
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

/** Every V5 body with a non-zero `retCode` is thrown as a `BybitApiError` first, its code kept. */
function keepBybitErrors(client: bybit): void {
  const original = client.handleErrors.bind(client);
  client.handleErrors = ((...args: Parameters<bybit['handleErrors']>) => {
    const [httpStatus, , , , , , response] = args;
    const body = response as { retCode?: unknown; retMsg?: unknown } | undefined;
    if (body && body.retCode !== undefined && Number(body.retCode) !== 0)
      throw new BybitApiError(Number(httpStatus), Number(body.retCode), String(body.retMsg ?? ''));
    return original(...args);
  }) as bybit['handleErrors'];
}
