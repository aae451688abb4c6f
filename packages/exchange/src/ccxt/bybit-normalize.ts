/**
 * Pure conversions from Bybit's V5 bodies (ccxt's implicit API methods hand them back raw) to the port's
 * types. Sections cited: bybit-exchange/docs v5 [open-order], [execution], [position], [wallet-balance].
 */
import { createHash } from 'node:crypto';
import { money } from '@gridbot/shared';
import type { Balance, FuturesPosition, MarketKind, Order, OrderStatus } from '../exchange-port';
import type { ApiKeyPermissions } from './key-permissions';
import { feeOfTrades } from './normalize';

type Raw = Record<string, unknown>;

const str = (value: unknown, fallback = '0'): string =>
  value === undefined || value === null || value === '' ? fallback : String(value);
const plain = (value: unknown): string => money(str(value)).toFixed();

/** [create-order] orderLinkId: "A max of 36 characters. Combinations of numbers, letters (upper and lower cases), dashes, and underscores". */
const LINK_ID = /^[A-Za-z0-9_-]{1,36}$/;

/**
 * The orderLinkId of a client order id: the id itself when Bybit accepts it as it is (the runtime's ids, 22
 * base64url characters, a dash and a base-36 sequence, always do), otherwise a digest of it in Bybit's
 * alphabet: deterministic, so a resend after a crash carries the very same orderLinkId.
 */
export function orderLinkIdOf(clientOrderId: string): string {
  if (LINK_ID.test(clientOrderId)) return clientOrderId;
  return `h${createHash('sha256').update(clientOrderId).digest('base64url').slice(0, 35)}`;
}

/** [enum] orderStatus → the port's; a partly filled order cancelled ends CANCELED with its fill. */
const STATUS: Readonly<Record<string, OrderStatus>> = {
  Created: 'NEW',
  New: 'NEW',
  Untriggered: 'NEW',
  PartiallyFilled: 'PARTIALLY_FILLED',
  Filled: 'FILLED',
  Cancelled: 'CANCELED',
  PartiallyFilledCanceled: 'CANCELED',
  Deactivated: 'CANCELED',
  Rejected: 'REJECTED',
};

export function bybitOrderStatus(raw: unknown): OrderStatus {
  const status = STATUS[str(raw, 'New')];
  if (!status) throw new Error(`Unknown Bybit order status ${String(raw)}`);
  return status;
}

/** What an order's trades add up to: quantity, value and fee (its fee coin). */
export interface ExecutionTotals {
  qty: string;
  value: string;
  fee: string;
  feeAsset: string;
}

/**
 * The fills of one order from [execution] rows: rows of any execType but `Trade` (`Funding` settlements
 * above all, which carry no order) are not fills and are left out. A row without `feeCurrency` (linear rows
 * leave it "", [execution] response example) is charged in `fallbackFeeAsset`: USDT on linear, on spot the
 * coin the trade credits ([enum] "Spot fee currency instruction").
 */
export function totalsOfExecutions(
  rows: readonly Raw[],
  orderId: string,
  fallbackFeeAsset: string,
): ExecutionTotals {
  const fills = rows.filter((r) => str(r.execType, 'Trade') === 'Trade' && str(r.orderId, '') === orderId);
  let qty = money(0);
  let value = money(0);
  for (const r of fills) {
    qty = qty.plus(str(r.execQty));
    value = value.plus(str(r.execValue));
  }
  const fee = feeOfTrades(
    fills.map((r) => ({ commission: r.execFee, commissionAsset: str(r.feeCurrency, fallbackFeeAsset) })),
    fallbackFeeAsset,
  );
  return { qty: qty.toFixed(), value: value.toFixed(), ...fee };
}

/**
 * An order of [open-order] / [order-list] with its fills. A classic spot market buy is sent by value
 * ([create-order] qty), so its base quantity is what it filled.
 */
export function orderFromBybit(
  raw: Raw,
  market: MarketKind,
  clientOrderId: string,
  fills: ExecutionTotals | undefined,
): Order {
  const side = str(raw.side) === 'Sell' ? 'sell' : 'buy';
  const type = str(raw.orderType) === 'Limit' ? 'limit' : 'market';
  const filled = money(fills?.qty ?? str(raw.cumExecQty));
  const quote = money(fills?.value ?? str(raw.cumExecValue));
  const byValue = market === 'spot' && type === 'market' && side === 'buy';
  const price = money(str(raw.price));
  return {
    market,
    symbol: str(raw.symbol),
    clientOrderId,
    exchangeOrderId: str(raw.orderId),
    side,
    type,
    status: bybitOrderStatus(raw.orderStatus),
    price: type === 'limit' && !price.isZero() ? price.toFixed() : undefined,
    quantity: byValue ? filled.toFixed() : plain(raw.qty),
    filledQuantity: filled.toFixed(),
    filledQuote: quote.toFixed(),
    averagePrice: filled.isZero() ? undefined : quote.dividedBy(filled).toFixed(),
    fee: fills?.fee ?? '0',
    feeAsset: fills?.feeAsset ?? 'USDT',
    createdMs: Number(raw.createdTime ?? 0),
    updatedMs: Number(raw.updatedTime ?? 0),
  };
}

/** [wallet-balance] classic SPOT: `free` and `locked` per coin; non-zero coins, USDT always. */
export function bybitSpotBalances(raw: Raw): Balance[] {
  const coins = coinsOf(raw);
  const out = coins
    .map((c) => ({ asset: str(c.coin), free: plain(c.free), locked: plain(c.locked) }))
    .filter((b) => b.asset === 'USDT' || !money(b.free).plus(b.locked).isZero());
  if (!out.some((b) => b.asset === 'USDT')) out.unshift({ asset: 'USDT', free: '0', locked: '0' });
  return out;
}

/** [wallet-balance] classic CONTRACT: free = availableToWithdraw, locked = walletBalance − free (margins). */
export function bybitContractBalances(raw: Raw): Balance[] {
  const out = coinsOf(raw)
    .map((c) => {
      const free = money(str(c.availableToWithdraw));
      const locked = money(str(c.walletBalance)).minus(free);
      return {
        asset: str(c.coin),
        free: free.toFixed(),
        locked: (locked.isNegative() ? money(0) : locked).toFixed(),
      };
    })
    .filter((b) => b.asset === 'USDT' || !money(b.free).plus(b.locked).isZero());
  if (!out.some((b) => b.asset === 'USDT')) out.unshift({ asset: 'USDT', free: '0', locked: '0' });
  return out;
}

function coinsOf(raw: Raw): Raw[] {
  const list = Array.isArray(raw.list) ? (raw.list as Raw[]) : [];
  return list.flatMap((account) => (Array.isArray(account.coin) ? (account.coin as Raw[]) : []));
}

/**
 * A [position] row, or undefined for a flat one ("side" None or "", size 0). One-way mode: side "`Buy`: long,
 * `Sell`: short", size "always positive". liqPrice "" (beyond the instrument's price range) is read as 0.
 */
export function positionFromBybit(raw: Raw): FuturesPosition | undefined {
  const size = money(str(raw.size));
  const side = str(raw.side, '');
  if (size.isZero() || (side !== 'Buy' && side !== 'Sell')) return undefined;
  return {
    symbol: str(raw.symbol),
    side: side === 'Buy' ? 'long' : 'short',
    quantity: size.toFixed(),
    entryPrice: plain(raw.avgPrice),
    leverage: Number(raw.leverage ?? 1),
    marginType: 'isolated',
    isolatedMargin: plain(raw.positionBalance ?? raw.positionIM),
    liquidationPrice: plain(raw.liqPrice),
    markPrice: raw.markPrice === undefined ? undefined : plain(raw.markPrice),
    unrealizedPnl: raw.unrealisedPnl === undefined ? undefined : plain(raw.unrealisedPnl),
  };
}

/**
 * The key's rights from GET /v5/user/query-api ([user] "Get API Key Information"): `readOnly` 1 trades
 * nothing; `permissions.Spot` ["SpotTrade"] and `permissions.ContractTrade` ["Order","Position"] ([user]
 * "Modify Master API Key") trade spot and USDT perpetuals; any `Wallet` right naming a withdrawal (the
 * "Withdrawal" permission) could move funds off Bybit; `ips` ["*"] is no IP bound.
 */
export function bybitKeyPermissions(raw: Raw): ApiKeyPermissions {
  const rights = (raw.permissions ?? {}) as Record<string, unknown>;
  const list = (name: string) => (Array.isArray(rights[name]) ? (rights[name] as unknown[]).map(String) : []);
  const writes = Number(raw.readOnly ?? 1) === 0;
  const ips = Array.isArray(raw.ips) ? (raw.ips as unknown[]).map(String) : [];
  return {
    ipRestrict: ips.length > 0 && !ips.includes('*'),
    enableReading: true,
    enableSpotAndMarginTrading: writes && list('Spot').includes('SpotTrade'),
    enableFutures: writes && list('ContractTrade').includes('Order'),
    enableWithdrawals: list('Wallet').some((right) => /withdraw/i.test(right)),
  };
}
