import { binance, binanceusdm } from 'ccxt';

export interface BinanceClientOptions {
  apiKey?: string;
  secret?: string;
  /** `BINANCE_SANDBOX=true`: Binance's spot testnet and futures testnet. */
  sandbox?: boolean;
  /** Replaces the origin of every Binance REST URL (tests: the loopback fake server). */
  baseUrl?: string;
  /** ccxt's own request throttling. Default true. */
  enableRateLimit?: boolean;
  /** Request timeout in ms. Default 10,000. */
  timeoutMs?: number;
}

/** ccxt clients for one account: `binance` for spot (+ sapi transfers), `binanceusdm` for USDT-M futures. */
export function createBinanceClients(options: BinanceClientOptions): { spot: binance; usdm: binanceusdm } {
  const common = {
    apiKey: options.apiKey,
    secret: options.secret,
    enableRateLimit: options.enableRateLimit ?? true,
    timeout: options.timeoutMs ?? 10_000,
  };
  const spot = new binance({
    ...common,
    options: {
      fetchMarkets: { types: ['spot'] },
      fetchMargins: false,
      fetchCurrencies: false,
      recvWindow: 5000,
    },
  });
  const usdm = new binanceusdm({
    ...common,
    options: {
      fetchMarkets: { types: ['linear'] },
      fetchCurrencies: false,
      recvWindow: 5000,
      disableFuturesSandboxWarning: true,
    },
  });
  if (options.sandbox) {
    spot.setSandboxMode(true);
    usdm.setSandboxMode(true);
  }
  keepBinanceErrors(spot);
  keepBinanceErrors(usdm);
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

/** Binance's error as it sent it: code and message, before ccxt rewords it into one of its classes. */
export class BinanceApiError extends Error {
  override readonly name = 'BinanceApiError';
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    readonly msg: string,
  ) {
    super(`HTTP ${httpStatus} ${code} ${msg}`);
  }
}

/**
 * ccxt rewrites some Binance errors ("binance Account has insufficient balance…") and drops the
 * code. Every body of the form `{ code: <negative>, msg }` is thrown as a `BinanceApiError` first.
 */
function keepBinanceErrors(client: binance): void {
  const original = client.handleErrors.bind(client);
  client.handleErrors = ((...args: Parameters<binance['handleErrors']>) => {
    const [httpStatus, , , , , , response] = args;
    const body = response as { code?: unknown; msg?: unknown } | undefined;
    if (body && typeof body.code === 'number' && body.code < 0 && typeof body.msg === 'string') {
      throw new BinanceApiError(Number(httpStatus), body.code, body.msg);
    }
    return original(...args);
  }) as binance['handleErrors'];
}
