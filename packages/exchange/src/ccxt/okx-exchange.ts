import { randomUUID } from 'node:crypto';
import { type MarketRules, money } from '@gridbot/shared';
import type { okx } from 'ccxt';
import { ErrorCode, ExchangeError, exchangeErrors } from '../exchange-error';
import {
  type AssetValue,
  type Balance,
  type ConvertResult,
  type Exchange,
  type FetchOrderResult,
  type ForcedClose,
  type FuturesPosition,
  futuresReduceOnly,
  isAllowedLeverage,
  type MarketKind,
  type Order,
  type PlaceOrderInput,
  type TransferDirection,
  type TransferResult,
  type WalletKind,
} from '../exchange-port';
import { prepareOrder } from '../order-rules';
import type { ApiKeyPermissions } from './key-permissions';
import { MARKETS_TTL_MS, MarketsCache } from './markets-cache';
import { createOkxClient, type OkxClientOptions, okxLateOrderWindowMs } from './okx-clients';
import {
  CANCEL_REFUSED_CODES,
  DUPLICATE_CL_ORD_ID,
  NO_SUCH_ORDER,
  OKX_HEDGE_MODE_MESSAGE,
  okxCodeOf,
  toOkxError,
} from './okx-errors';
import {
  clientOrderIdOfClOrdId,
  clOrdIdOf,
  okxBalances,
  okxInstIdOf,
  okxKeyPermissions,
  orderFromOkx,
  positionFromOkx,
  rulesFromOkxInstrument,
  totalsOfFills,
} from './okx-normalize';
import { DEFAULT_RETRY, type RetryPolicy, withRetry } from './retry';
import { placeAndReadBack } from './send-once';
import { sellToUsdt, valuedSpotAssets } from './spot-wallet';

type Raw = Record<string, unknown>;

export interface OkxExchangeOptions extends OkxClientOptions {
  apiKey: string;
  secret: string;
  passphrase: string;
  /** Back-off of retryable failures of reads (50011, 50102, no answer). Tests pass a zero-delay sleep. */
  retry?: Partial<RetryPolicy>;
  /** How long loaded instruments are kept before they are read again (default a day). */
  marketsTtlMs?: number;
}

const instType = (market: MarketKind) => (market === 'spot' ? 'SPOT' : 'SWAP');
/** [orders-pending] / [fills] limit: "The maximum is 100". */
const PAGE = 100;

/**
 * The `Exchange` port on an OKX account through ccxt's API v5 implicit methods, for spot and USDT perpetual
 * swaps, in "Spot and futures mode": one Trading account holds the USDT of both, so both wallets show the
 * same USDT and a transfer between them moves nothing. Orders are rounded and checked with the same
 * `prepareOrder` as every venue; rules come from the instruments (GET /api/v5/public/instruments), swap
 * sizes are contracts of ctVal coins. The client order id becomes a clOrdId (`clOrdIdOf`); it is looked up
 * before the order is sent, so a repeat returns the original order. The order POST is sent once and read
 * back with its fills (GET /api/v5/trade/fills); an unanswered one ends in kind `unknown` for the caller to
 * look up (docs/trading-rules.md §3).
 */
export class OkxExchange implements Exchange {
  readonly venue = 'okx' as const;
  readonly lateOrderWindowMs: number;
  readonly sharedWallet = true;
  /** Net mode: a sell that is not reduce-only opens a short ([place-order] posSide net, reduceOnly). */
  readonly opensShorts = true;
  private readonly client: okx;
  private readonly retry: RetryPolicy;
  private readonly markets: MarketsCache;
  /** Net position mode was seen set on the account this process. */
  private netModeSeen = false;

  constructor(options: OkxExchangeOptions) {
    this.client = createOkxClient(options);
    this.lateOrderWindowMs = okxLateOrderWindowMs(options);
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.markets = new MarketsCache(
      options.marketsTtlMs ?? MARKETS_TTL_MS,
      (reload) => this.call((c) => c.loadMarkets(reload)),
      () => this.client.markets !== undefined,
    );
  }

  async marketRules(symbol: string, market: MarketKind): Promise<MarketRules> {
    return rulesFromOkxInstrument(await this.instrument(symbol, market), market);
  }

  async balances(wallet: WalletKind): Promise<Balance[]> {
    const row = (await this.data((c) => c.privateGetAccountBalance()))[0] ?? {};
    return wallet === 'spot' ? okxBalances(row) : okxBalances(row, 'USDT');
  }

  /** The key's rights, from GET /api/v5/account/config (perm and ip). */
  async keyPermissions(): Promise<ApiKeyPermissions> {
    return okxKeyPermissions((await this.data((c) => c.privateGetAccountConfig()))[0] ?? {});
  }

  /** One Trading account: the same free USDT backs spot and swaps. */
  async usdtFree(): Promise<Record<WalletKind, string>> {
    const usdt = (await this.balances('future'))[0]?.free ?? '0';
    return { spot: usdt, future: usdt };
  }

  spotAssets(): Promise<AssetValue[]> {
    return valuedSpotAssets(this, (symbol) => this.lastPrice(okxInstIdOf(symbol, 'spot')));
  }

  async placeOrder(input: PlaceOrderInput): Promise<Order> {
    const symbol = input.symbol.toUpperCase();
    const inst = await this.instrument(symbol, input.market);
    const rules = rulesFromOkxInstrument(inst, input.market);
    const instId = String(inst.instId);
    const last = money(await this.lastPrice(instId));
    const prepared = prepareOrder({ ...input, symbol }, rules, last);
    const known = await this.fetchOrder(input.market, symbol, input.clientOrderId);
    if (known.found) return known.order;
    const future = input.market === 'future';
    if (future) await this.ensureNetMode();
    const params: Raw = {
      instId,
      // [place-order] tdMode: "cash" for spot without margin, "isolated" for an isolated swap position.
      tdMode: future ? 'isolated' : 'cash',
      side: input.side,
      ordType: input.type,
      // [place-order] sz: contracts on a swap; on spot the base coin (tgtCcy base_ccy for a market buy,
      // whose default is the quote coin).
      sz: future ? prepared.quantity.dividedBy(ctValOf(inst)).toFixed() : prepared.quantity.toFixed(),
      clOrdId: clOrdIdOf(input.clientOrderId),
    };
    if (!future && input.type === 'market') params.tgtCcy = 'base_ccy';
    if (prepared.price) params.px = prepared.price.toFixed();
    if (future) {
      // [place-order] posSide "The default is `net` in the `net` mode"; reduceOnly "Whether orders can only
      // reduce in position size … Only applicable to … `FUTURES`/`SWAP` orders in `net` mode".
      params.posSide = 'net';
      if (futuresReduceOnly(input)) params.reduceOnly = true;
    }
    return placeAndReadBack({
      exchange: 'OKX',
      send: () => this.client.privatePostTradeOrder(params),
      toError: toOkxError,
      // A used clOrdId refused: the order exists.
      isDuplicateId: (error) => okxCodeOf(error) === DUPLICATE_CL_ORD_ID,
      lookUp: () => this.fetchOrder(input.market, symbol, input.clientOrderId),
    });
  }

  /** [order-details] by clOrdId; 51603 "Order does not exist" is "none". An order with fills gets them from [fills]. */
  async fetchOrder(market: MarketKind, symbol: string, clientOrderId: string): Promise<FetchOrderResult> {
    const inst = await this.instrument(symbol, market);
    let rows: Raw[];
    try {
      rows = await this.data((c) =>
        c.privateGetTradeOrder({ instId: inst.instId, clOrdId: clOrdIdOf(clientOrderId) }),
      );
    } catch (error) {
      const mapped = toOkxError(error);
      if (okxCodeOf(mapped) === NO_SUCH_ORDER) return { found: false };
      throw mapped;
    }
    const row = rows[0];
    if (!row) return { found: false };
    return { found: true, order: await this.withFills(market, inst, row, clientOrderId) };
  }

  async cancelOrder(market: MarketKind, symbol: string, clientOrderId: string): Promise<Order> {
    const inst = await this.instrument(symbol, market);
    try {
      await this.data((c) =>
        c.privatePostTradeCancelOrder({ instId: inst.instId, clOrdId: clOrdIdOf(clientOrderId) }),
      );
    } catch (error) {
      const mapped = toOkxError(error);
      if (CANCEL_REFUSED_CODES.has(okxCodeOf(mapped) ?? 0)) throw exchangeErrors.unknownOrder(mapped);
      throw mapped;
    }
    const after = await this.fetchOrder(market, symbol, clientOrderId);
    if (!after.found) throw exchangeErrors.unknownOrder();
    return after.order;
  }

  /** [orders-pending] every page: "after" the oldest ordId of the page before. */
  async openOrders(market: MarketKind, symbol?: string): Promise<Order[]> {
    const query: Raw = { instType: instType(market), limit: PAGE };
    if (symbol) query.instId = okxInstIdOf(symbol, market);
    const rows: Raw[] = [];
    for (let after: string | undefined; ; ) {
      const page = await this.data((c) =>
        c.privateGetTradeOrdersPending(after ? { ...query, after } : query),
      );
      rows.push(...page);
      after = page.length === PAGE ? String(page[page.length - 1]?.ordId ?? '') : undefined;
      if (!after) break;
    }
    await this.markets.ensure();
    return Promise.all(
      rows.map((row) =>
        this.withFills(
          market,
          this.marketByInstId(String(row.instId)),
          row,
          clientOrderIdOfClOrdId(String(row.clOrdId ?? '')),
        ),
      ),
    );
  }

  async setLeverage(symbol: string, leverage: number): Promise<void> {
    const inst = await this.instrument(symbol, 'future');
    const rules = rulesFromOkxInstrument(inst, 'future');
    if (!isAllowedLeverage(leverage, rules.maxLeverage)) throw exchangeErrors.invalidLeverage();
    await this.ensureNetMode();
    const query = { instId: inst.instId, mgnMode: 'isolated' };
    await this.data((c) => c.privatePostAccountSetLeverage({ ...query, lever: String(leverage) }));
    // Verified, not assumed: the isolated leverage is what the next order uses.
    const row = (await this.data((c) => c.privateGetAccountLeverageInfo(query)))[0];
    if (!row || Number(row.lever) !== leverage)
      throw new ExchangeError(
        'retryable',
        ErrorCode.unknown,
        `OKX did not confirm ${leverage}× isolated margin on ${rules.symbol}; try again.`,
      );
  }

  async position(symbol: string): Promise<FuturesPosition | undefined> {
    const inst = await this.instrument(symbol, 'future');
    const rows = await this.data((c) =>
      c.privateGetAccountPositions({ instType: 'SWAP', instId: inst.instId }),
    );
    return rows.map((r) => positionFromOkx(r, ctValOf(inst))).find((p) => p !== undefined);
  }

  async positions(): Promise<FuturesPosition[]> {
    const rows = await this.data((c) => c.privateGetAccountPositions({ instType: 'SWAP' }));
    await this.markets.ensure();
    return rows
      .map((r) => positionFromOkx(r, ctValOf(this.marketByInstId(String(r.instId)))))
      .filter((p): p is FuturesPosition => p !== undefined);
  }

  /**
   * Closes OKX made itself, from [positions-history]: type 3 "Liquidation" and 4 "Partial liquidation" are
   * liquidations, 5 "ADL" auto-deleveraging; closeTotalPos contracts at closeAvgPx, realizedPnl, fee
   * (negative when charged).
   */
  async forcedCloses(symbol: string, sinceMs: number): Promise<ForcedClose[]> {
    const inst = await this.instrument(symbol, 'future');
    const rows = await this.data((c) =>
      c.privateGetAccountPositionsHistory({ instType: 'SWAP', instId: inst.instId }),
    );
    const ctVal = ctValOf(inst);
    return rows
      .filter((r) => ['3', '4', '5'].includes(String(r.type)) && Number(r.uTime ?? 0) >= sinceMs)
      .map((r) => {
        const quantity = money(String(r.closeTotalPos ?? '0')).times(ctVal);
        const price = money(String(r.closeAvgPx ?? '0'));
        return {
          symbol: symbol.toUpperCase(),
          exchangeOrderId: `${String(r.posId ?? '')}-${String(r.uTime ?? '')}`,
          reason: String(r.type) === '5' ? ('adl' as const) : ('liquidation' as const),
          averagePrice: price.toFixed(),
          quantity: quantity.toFixed(),
          quote: quantity.times(price).toFixed(),
          fee: money(String(r.fee || '0'))
            .negated()
            .toFixed(),
          realizedPnl: money(String(r.realizedPnl || '0')).toFixed(),
          timeMs: Number(r.uTime ?? 0),
        };
      })
      .sort((a, b) => a.timeMs - b.timeMs);
  }

  /**
   * Spot and swaps trade from the one Trading account: nothing moves. The amount is checked against the
   * free USDT, as a transfer would be.
   */
  async transfer(direction: TransferDirection, amount: string): Promise<TransferResult> {
    const value = money(amount);
    if (!value.isFinite() || value.lte(0))
      throw exchangeErrors.invalidParameter("Illegal value for parameter 'amount'.");
    const free = money((await this.usdtFree()).spot);
    if (free.lt(value)) throw exchangeErrors.insufficientBalance();
    return { transferId: `okx-trading-${randomUUID()}`, direction, asset: 'USDT', amount: value.toFixed() };
  }

  convertToUsdt(asset: string, amount?: string): Promise<ConvertResult> {
    return sellToUsdt(this, asset, amount);
  }

  /**
   * [account-config] posMode: the platform sends one-way (net) orders, without posSide. An account in
   * long/short mode is switched to net mode ([set-position-mode]); OKX refuses that while it holds swap
   * positions or orders (59000), and then the user must do it: a refusal with reason position_mode.
   */
  private async ensureNetMode(): Promise<void> {
    if (this.netModeSeen) return;
    const config = (await this.data((c) => c.privateGetAccountConfig()))[0] ?? {};
    if (config.posMode === 'long_short_mode') {
      try {
        await this.data((c) => c.privatePostAccountSetPositionMode({ posMode: 'net_mode' }));
      } catch (error) {
        throw new ExchangeError('rejected', ErrorCode.positionSideMismatch, OKX_HEDGE_MODE_MESSAGE, {
          cause: toOkxError(error),
          reason: 'position_mode',
        });
      }
    }
    this.netModeSeen = true;
  }

  /** An order row with its fills ([fills] by ordId) when something filled; the row's own fee when none is listed. */
  private async withFills(market: MarketKind, inst: Raw, row: Raw, clientOrderId: string): Promise<Order> {
    const ctVal = ctValOf(inst);
    if (money(String(row.accFillSz || '0')).isZero())
      return orderFromOkx(row, market, clientOrderId, ctVal, undefined, 'USDT');
    const ordId = String(row.ordId);
    const fills = await this.data((c) =>
      c.privateGetTradeFills({ instType: instType(market), instId: inst.instId, ordId, limit: PAGE }),
    );
    const base = String(inst.instId).split('-')[0] ?? '';
    const feeCoin = market === 'spot' && row.side === 'buy' ? base : 'USDT';
    const totals = fills.length > 0 ? totalsOfFills(fills, ordId, ctVal, feeCoin) : undefined;
    return orderFromOkx(row, market, clientOrderId, ctVal, totals, feeCoin);
  }

  /** The raw instrument of a port symbol (instruments of SPOT and SWAP, loaded at first use and once a day). */
  private async instrument(symbol: string, market: MarketKind): Promise<Raw> {
    await this.markets.ensure();
    return this.marketByInstId(okxInstIdOf(symbol, market));
  }

  private marketByInstId(instId: string): Raw {
    const found = Object.values(this.client.markets ?? {}).find((m) => m?.id === instId);
    if (!found) throw exchangeErrors.invalidSymbol();
    return found.info as Raw;
  }

  /** "Market Data → GET / Ticker" last. */
  private async lastPrice(instId: string): Promise<string> {
    const row = (await this.data((c) => c.publicGetMarketTicker({ instId })))[0];
    if (!row) throw exchangeErrors.invalidSymbol();
    return String(row.last);
  }

  /** The `data` of a v5 call. */
  private async data(fn: (client: okx) => Promise<unknown>): Promise<Raw[]> {
    const body = (await this.call(fn)) as { data?: unknown } | undefined;
    return Array.isArray(body?.data) ? (body.data as Raw[]) : [];
  }

  /** One ccxt call with error mapping and back-off; re-syncs the clock after 50102. */
  private call<T>(fn: (client: okx) => Promise<T>): Promise<T> {
    return withRetry(
      this.retry,
      () => fn(this.client),
      toOkxError,
      async (error) => {
        if (error.code === ErrorCode.timestamp) await this.client.loadTimeDifference().catch(() => undefined);
      },
    );
  }
}

/** [instruments] ctVal: coins per contract on a swap; 1 on spot, whose sizes are coins. */
function ctValOf(inst: Raw): string {
  return inst.instType === 'SWAP' ? String(inst.ctVal || '1') : '1';
}
