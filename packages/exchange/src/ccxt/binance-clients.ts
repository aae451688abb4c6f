import { binance, binanceusdm } from 'ccxt';
import { type BinanceRateGate, processRateGate } from './rate-gate';

export interface BinanceClientOptions {
  apiKey?: string;
  secret?: string;
  /** `BINANCE_SANDBOX=true`: Binance's spot testnet and futures testnet. */
  sandbox?: boolean;
  /** Replaces the origin of every Binance REST URL (`BINANCE_REST_URL`; tests: the loopback fake server). */
  baseUrl?: string;
  /** Weight throttling (shared by all clients of the process). Default true. */
  enableRateLimit?: boolean;
  /** The rate limiter shared by every client of the process (default); tests pass their own. */
  gate?: BinanceRateGate;
  /** Request timeout in ms. Default 10,000. */
  timeoutMs?: number;
  /** `recvWindow` of signed requests in ms (default 5,000); tests shorten it. */
  recvWindowMs?: number;
}

/**
 * [spot rest-api.md] "Timing security": `recvWindow` is "the number of milliseconds after timestamp the
 * request is valid for"; "If recvWindow is not sent, it defaults to 5000" and the docs recommend "5000 or
 * less". The same for USDⓈ-M futures ("General Info", Timing Security).
 */
export const BINANCE_RECV_WINDOW_MS = 5000;

/**
 * How long after an order call that ended without a clear answer the order may still reach Binance's
 * matching engine: a -1007 "does not always mean that the request failed in the Matching Engine" ([spot
 * rest-api.md] "General API Information"), and a request is processed `if (timestamp < (serverTime + 1000)
 * && (serverTime - timestamp) <= recvWindow)` ("Timing security"). The request's timestamp is at most the
 * moment the call ended, and our clock may lead Binance's by up to 1000 ms: after recvWindow + 1000 ms,
 * "Order does not exist." (-2013) is final.
 */
export function lateOrderWindowMs(options: Pick<BinanceClientOptions, 'recvWindowMs'>): number {
  return (options.recvWindowMs ?? BINANCE_RECV_WINDOW_MS) + 1000;
}

/** ccxt clients for one account: `binance` for spot (+ sapi transfers), `binanceusdm` for USDT-M futures. */
export function createBinanceClients(options: BinanceClientOptions): { spot: binance; usdm: binanceusdm } {
  const common = {
    apiKey: options.apiKey,
    secret: options.secret,
    // Always on: the throttle hook below waits out 429/418 pauses even when weight throttling is off.
    enableRateLimit: true,
    timeout: options.timeoutMs ?? 10_000,
  };
  const spot = new binance({
    ...common,
    options: {
      fetchMarkets: { types: ['spot'] },
      fetchMargins: false,
      fetchCurrencies: false,
      recvWindow: options.recvWindowMs ?? BINANCE_RECV_WINDOW_MS,
    },
  });
  const usdm = new binanceusdm({
    ...common,
    options: {
      fetchMarkets: { types: ['linear'] },
      fetchCurrencies: false,
      recvWindow: options.recvWindowMs ?? BINANCE_RECV_WINDOW_MS,
      disableFuturesSandboxWarning: true,
    },
  });
  if (options.sandbox) {
    spot.setSandboxMode(true);
    usdm.setSandboxMode(true);
  }
  const gate = options.gate ?? processRateGate;
  const weighted = options.enableRateLimit ?? true;
  shareGate(spot, 'spot', gate, weighted);
  shareGate(usdm, 'usdm', gate, weighted);
  keepBinanceErrors(spot, gate);
  keepBinanceErrors(usdm, gate);
  if (options.baseUrl) {
    pointAt(spot, options.baseUrl);
    pointAt(usdm, options.baseUrl);
  }
  return { spot, usdm };
}

/** Rewrites every REST base URL of a client to `baseUrl`, keeping the path (`/api/v3`, `/fapi/v1`, …). */
function pointAt(client: binance, baseUrl: string): void {
  const api = client.urls.api as Record<string, string>;
  for (const key of Object.keys(api)) {
    const value = api[key];
    if (typeof value === 'string') api[key] = value.replace(/^https?:\/\/[^/]+/, baseUrl.replace(/\/$/, ''));
  }
}

/**
 * Every request of the client first waits out the process's 429/418 pause, then takes its weight from
 * the venue's bucket shared by all clients of the process (Binance counts weight per IP).
 */
function shareGate(client: binance, venue: string, gate: BinanceRateGate, weighted: boolean): void {
  const throttler = gate.throttlerFor(venue, client.throttler);
  client.throttler = throttler as binance['throttler'];
  client.throttle = (async (cost?: number) => {
    await gate.wait();
    if (weighted) await throttler.throttle(cost);
  }) as binance['throttle'];
}

/** Binance's error as it sent it: code and message, before ccxt rewords it into one of its classes. */
export class BinanceApiError extends Error {
  override readonly name = 'BinanceApiError';
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    readonly msg: string,
    /** `Retry-After` of a 429/418, in seconds. */
    readonly retryAfterSec?: number,
  ) {
    super(`HTTP ${httpStatus} ${code} ${msg}`);
  }
}

/**
 * ccxt rewrites some Binance errors ("binance Account has insufficient balance…") and drops the
 * code. Every body of the form `{ code: <negative>, msg }` is thrown as a `BinanceApiError` first.
 */
function keepBinanceErrors(client: binance, gate: BinanceRateGate): void {
  const original = client.handleErrors.bind(client);
  client.handleErrors = ((...args: Parameters<binance['handleErrors']>) => {
    const [httpStatus, , , , headers, , response] = args;
    const status = Number(httpStatus);
    let retryAfterSec: number | undefined;
    if (status === 429 || status === 418) {
      // "LIMITS": a Retry-After header (seconds) comes with a 418 or 429; every client of the process waits.
      const raw = retryAfterOf(headers);
      retryAfterSec = raw === undefined ? undefined : Number(raw);
      gate.rateLimited(status, retryAfterSec);
    }
    const body = response as { code?: unknown; msg?: unknown } | undefined;
    if (body && typeof body.code === 'number' && body.code < 0 && typeof body.msg === 'string') {
      throw new BinanceApiError(status, body.code, body.msg, retryAfterSec);
    }
    return original(...args);
  }) as binance['handleErrors'];
}

function retryAfterOf(headers: unknown): string | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    if (name.toLowerCase() === 'retry-after' && value !== undefined && value !== null) return String(value);
  }
  return undefined;
}
