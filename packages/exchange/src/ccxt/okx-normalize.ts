/**
 * Pure conversions from OKX's API v5 bodies (ccxt's implicit API methods hand them back raw) to the port's
 * types. Sections cited as in testing/fake-okx-book.ts: [place-order], [order-details], [fills], [balance],
 * [positions], [account-config], [instruments].
 */
import { createHash } from 'node:crypto';
import {
  DEFAULT_MAINT_MARGIN_RATE,
  findMarketRules,
  type MarketKind,
  type MarketRules,
  money,
} from '@gridbot/shared';
import type { Balance, FuturesPosition, Order, OrderStatus } from '../exchange-port';
import type { ApiKeyPermissions } from './key-permissions';
import { feeOfTrades } from './normalize';

type Raw = Record<string, unknown>;

const str = (value: unknown, fallback = '0'): string =>
  value === undefined || value === null || value === '' ? fallback : String(value);
const plain = (value: unknown): string => money(str(value)).toFixed();

/** OKX's instrument id of a port symbol: BTCUSDT → BTC-USDT (spot), BTC-USDT-SWAP (USDT perpetual). */
export function okxInstIdOf(symbol: string, market: MarketKind): string {
  const base = symbol.toUpperCase().replace(/USDT$/, '');
  return market === 'spot' ? `${base}-USDT` : `${base}-USDT-SWAP`;
}

/** The port symbol of an instrument id: BTC-USDT and BTC-USDT-SWAP are BTCUSDT. */
export function symbolOfInstId(instId: string): string {
  const [base, quote] = instId.split('-');
  return `${base ?? ''}${quote ?? ''}`;
}

/**
 * [place-order] clOrdId: "A combination of case-sensitive alphanumerics, all numbers, or all letters of up
 * to 32 characters."
 */
const CL_ORD_ID = /^[A-Za-z0-9]{1,32}$/;
/** The runtime's client order ids: a bot id packed to 22 base64url characters, a dash, a base-36 sequence. */
const RUNTIME_ID = /^([A-Za-z0-9_-]{22})-([0-9a-z]{1,9})$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function toBase62(bytes: Buffer, width: number): string {
  let n = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(width, '0');
}

function fromBase62(text: string, bytes: number): Buffer | undefined {
  let n = 0n;
  for (const c of text) {
    const digit = BASE62.indexOf(c);
    if (digit < 0) return undefined;
    n = n * 62n + BigInt(digit);
  }
  const hex = n.toString(16).padStart(bytes * 2, '0');
  return hex.length === bytes * 2 ? Buffer.from(hex, 'hex') : undefined;
}

/**
 * The clOrdId of a client order id: deterministic (a resend after a crash carries the same one) and, but
 * for the last case, reversible (`clientOrderIdOfClOrdId`), so orders listed by OKX come back under the
 * runtime's own ids. A one-letter scheme, then:
 * - `g`: a runtime id, its 16 bot-id bytes in 22 base-62 digits and its base-36 sequence as it is;
 * - `e`: any other id of letters, digits, '-' and '_' that fits, with '-' as Z0, '_' as Z1, 'Z' as Z2;
 * - `h`: anything else, 31 hex digits of its SHA-256 (not reversible).
 */
export function clOrdIdOf(clientOrderId: string): string {
  const runtime = RUNTIME_ID.exec(clientOrderId);
  const packed = runtime ? Buffer.from(runtime[1] ?? '', 'base64url') : undefined;
  if (runtime && packed?.length === 16) return `g${toBase62(packed, 22)}${runtime[2]}`;
  const escaped = `e${clientOrderId.replace(/[-_Z]/g, (c) => (c === '-' ? 'Z0' : c === '_' ? 'Z1' : 'Z2'))}`;
  if (CL_ORD_ID.test(escaped)) return escaped;
  return `h${createHash('sha256').update(clientOrderId).digest('hex').slice(0, 31)}`;
}

/** The client order id behind a clOrdId `clOrdIdOf` made; any other clOrdId is its own. */
export function clientOrderIdOfClOrdId(clOrdId: string): string {
  if (/^g[0-9A-Za-z]{23,31}$/.test(clOrdId)) {
    const bytes = fromBase62(clOrdId.slice(1, 23), 16);
    const seq = clOrdId.slice(23);
    if (bytes && /^[0-9a-z]+$/.test(seq)) return `${bytes.toString('base64url')}-${seq}`;
  }
  if (/^e[0-9A-Za-z]+$/.test(clOrdId) && !/Z(?![012])/.test(clOrdId))
    return clOrdId.slice(1).replace(/Z[012]/g, (z) => (z === 'Z0' ? '-' : z === 'Z1' ? '_' : 'Z'));
  return clOrdId;
}

/**
 * Market rules of an instrument ([instruments]): tickSz is the tick; lotSz and minSz are in the base coin
 * on SPOT and in contracts of ctVal coins on SWAP. OKX publishes no minimum order value, so the platform's
 * own (the shared table's) is kept; maintenance rate and maximum leverage come from the table too.
 */
export function rulesFromOkxInstrument(raw: Raw, market: MarketKind): MarketRules {
  const instId = str(raw.instId, '');
  const symbol = symbolOfInstId(instId);
  const known = findMarketRules(symbol, market);
  const ctVal = market === 'future' ? money(str(raw.ctVal, '1')) : money(1);
  const lever = Number(str(raw.lever, '1'));
  return {
    symbol,
    base: instId.split('-')[0] ?? '',
    quote: 'USDT',
    market,
    tickSize: plain(raw.tickSz),
    stepSize: money(str(raw.lotSz)).times(ctVal).toFixed(),
    minQty: money(str(raw.minSz)).times(ctVal).toFixed(),
    minNotional: known?.minNotional ?? '0',
    maintMarginRate: market === 'future' ? (known?.maintMarginRate ?? DEFAULT_MAINT_MARGIN_RATE) : 0,
    maxLeverage: market === 'future' ? Math.min(lever, known?.maxLeverage ?? lever) : 1,
  };
}

/** [order-details] state → the port's; a partly filled order cancelled ends CANCELED with its fill. */
const STATUS: Readonly<Record<string, OrderStatus>> = {
  live: 'NEW',
  partially_filled: 'PARTIALLY_FILLED',
  filled: 'FILLED',
  canceled: 'CANCELED',
  mmp_canceled: 'CANCELED',
};

export function okxOrderStatus(raw: unknown): OrderStatus {
  const status = STATUS[str(raw, 'live')];
  if (!status) throw new Error(`Unknown OKX order state ${String(raw)}`);
  return status;
}

/** What an order's fills add up to: base quantity, value and fee (its fee coin, charged as a positive number). */
export interface FillTotals {
  qty: string;
  value: string;
  fee: string;
  feeAsset: string;
}

/**
 * The fills of one order from [fills] rows: fillSz × ctVal coins at fillPx each. [fills] fee "Negative
 * number represents the user transaction fee charged by the platform. Positive number represents rebate",
 * so the fee charged is its negation. A row without feeCcy is charged in `fallbackFeeAsset`: on spot the
 * coin the trade credits, on a swap USDT.
 */
export function totalsOfFills(
  rows: readonly Raw[],
  ordId: string,
  ctVal: string,
  fallbackFeeAsset: string,
): FillTotals {
  const fills = rows.filter((r) => str(r.ordId, '') === ordId);
  let qty = money(0);
  let value = money(0);
  for (const r of fills) {
    const coins = money(str(r.fillSz)).times(ctVal);
    qty = qty.plus(coins);
    value = value.plus(coins.times(str(r.fillPx)));
  }
  const fee = feeOfTrades(
    fills.map((r) => ({
      commission: money(str(r.fee)).negated().toFixed(),
      commissionAsset: str(r.feeCcy, fallbackFeeAsset),
    })),
    fallbackFeeAsset,
  );
  return { qty: qty.toFixed(), value: value.toFixed(), ...fee };
}

/**
 * An order of [order-details] / [orders-pending] with its fills, sizes in coins (a swap's contracts × ctVal).
 * A spot market buy sent in the quote coin (tgtCcy quote_ccy) has as its quantity what it filled. Without
 * fill rows ([fills] covers 3 days) the order's own fee stands, in its feeCcy or else `fallbackFeeAsset`.
 */
export function orderFromOkx(
  raw: Raw,
  market: MarketKind,
  clientOrderId: string,
  ctVal: string,
  fills: FillTotals | undefined,
  fallbackFeeAsset: string,
): Order {
  const side = str(raw.side) === 'sell' ? 'sell' : 'buy';
  const type = str(raw.ordType) === 'limit' ? 'limit' : 'market';
  const filled = money(fills?.qty ?? money(str(raw.accFillSz)).times(ctVal));
  const avg = money(str(raw.avgPx));
  const quote = money(fills?.value ?? filled.times(avg));
  const byQuote = str(raw.tgtCcy, '') === 'quote_ccy';
  const price = money(str(raw.px));
  const orderFee = money(str(raw.fee)).negated();
  return {
    market,
    symbol: symbolOfInstId(str(raw.instId, '')),
    clientOrderId,
    exchangeOrderId: str(raw.ordId),
    side,
    type,
    status: okxOrderStatus(raw.state),
    price: type === 'limit' && !price.isZero() ? price.toFixed() : undefined,
    quantity: byQuote ? filled.toFixed() : money(str(raw.sz)).times(ctVal).toFixed(),
    filledQuantity: filled.toFixed(),
    filledQuote: quote.toFixed(),
    averagePrice: filled.isZero() ? undefined : quote.dividedBy(filled).toFixed(),
    fee: fills?.fee ?? orderFee.toFixed(),
    feeAsset: fills?.feeAsset ?? str(raw.feeCcy, fallbackFeeAsset),
    createdMs: Number(raw.cTime ?? 0),
    updatedMs: Number(raw.uTime ?? 0),
  };
}

function detailsOf(raw: Raw): Raw[] {
  return Array.isArray(raw.details) ? (raw.details as Raw[]) : [];
}

/** [balance] details: free = availBal, locked = frozenBal (open orders and isolated margin); non-zero, USDT always. */
export function okxBalances(raw: Raw, only?: string): Balance[] {
  const out = detailsOf(raw)
    .filter((d) => !only || str(d.ccy, '') === only)
    .map((d) => ({ asset: str(d.ccy, ''), free: plain(d.availBal), locked: plain(d.frozenBal) }))
    .filter((b) => b.asset === 'USDT' || !money(b.free).plus(b.locked).isZero());
  if (!out.some((b) => b.asset === 'USDT')) out.unshift({ asset: 'USDT', free: '0', locked: '0' });
  return out;
}

/**
 * A [positions] row, or undefined for a flat one. posSide `net`: "positive `pos` means long position and
 * negative `pos` means short position"; `long` and `short` (long/short mode) carry a positive pos. pos is in
 * contracts; liqPx "" reads as 0.
 */
export function positionFromOkx(raw: Raw, ctVal: string): FuturesPosition | undefined {
  const pos = money(str(raw.pos));
  const posSide = str(raw.posSide, 'net');
  if (pos.isZero() || !['net', 'long', 'short'].includes(posSide)) return undefined;
  const short = posSide === 'short' || (posSide === 'net' && pos.isNegative());
  return {
    symbol: symbolOfInstId(str(raw.instId, '')),
    side: short ? 'short' : 'long',
    quantity: pos.abs().times(ctVal).toFixed(),
    entryPrice: plain(raw.avgPx),
    leverage: Number(str(raw.lever, '1')),
    marginType: 'isolated',
    isolatedMargin: plain(raw.margin),
    liquidationPrice: plain(raw.liqPx),
    markPrice: raw.markPx === undefined || raw.markPx === '' ? undefined : plain(raw.markPx),
    unrealizedPnl: raw.upl === undefined || raw.upl === '' ? undefined : plain(raw.upl),
  };
}

/**
 * The key's rights from [account-config]: perm "read_only, trade, withdraw" (comma-separated), ip "IP
 * addresses linked with current API key … an empty string "" if there is no IP bonded". A trade right
 * trades spot and swaps alike.
 */
export function okxKeyPermissions(raw: Raw): ApiKeyPermissions {
  const perm = str(raw.perm, '')
    .split(',')
    .map((p) => p.trim());
  const trade = perm.includes('trade');
  return {
    ipRestrict: str(raw.ip, '') !== '',
    enableReading: true,
    enableSpotAndMarginTrading: trade,
    enableFutures: trade,
    enableWithdrawals: perm.includes('withdraw'),
  };
}
