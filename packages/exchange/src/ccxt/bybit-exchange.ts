import { randomUUID } from 'node:crypto';
import { type MarketRules, Money, money } from '@gridbot/shared';
import type { bybit } from 'ccxt';
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
import { type BybitClientOptions, bybitLateOrderWindowMs, createBybitClient } from './bybit-clients';
import {
  BYBIT_HEDGE_MODE_MESSAGE,
  BYBIT_UNIFIED_ACCOUNT_MESSAGE,
  bybitCodeOf,
  DUPLICATE_LINK_ID_CODES,
  NO_SUCH_ORDER_CODES,
  toBybitError,
} from './bybit-errors';
import {
  bybitContractBalances,
  bybitKeyPermissions,
  bybitSpotBalances,
  orderFromBybit,
  orderLinkIdOf,
  positionFromBybit,
  totalsOfExecutions,
} from './bybit-normalize';
import type { ApiKeyPermissions } from './key-permissions';
import { MARKETS_TTL_MS, MarketsCache } from './markets-cache';
import { rulesFromMarket } from './normalize';
import { DEFAULT_RETRY, type RetryPolicy, withRetry } from './retry';
import { placeAndReadBack } from './send-once';
import { sellToUsdt, usdtFreeOf, valuedSpotAssets } from './spot-wallet';

type Raw = Record<string, unknown>;

export interface BybitExchangeOptions extends BybitClientOptions {
  apiKey: string;
  secret: string;
  /** Back-off of retryable failures of reads (10006, 10002, no answer). Tests pass a zero-delay sleep. */
  retry?: Partial<RetryPolicy>;
  /** How long loaded instruments are kept before they are read again (default a day). */
  marketsTtlMs?: number;
}

const category = (market: MarketKind) => (market === 'spot' ? 'spot' : 'linear');

/**
 * The `Exchange` port on a classic Bybit account (Spot and Contract wallets) through ccxt's V5 implicit API,
 * for spot and USDT perpetuals. Orders are rounded and checked with the same `prepareOrder` as every venue;
 * rules come from ccxt's markets (GET /v5/market/instruments-info). The client order id becomes an
 * orderLinkId (`orderLinkIdOf`); it is looked up before the order is sent, so a repeat returns the original
 * order. POST /v5/order/create only acknowledges ([create-order] "The ack of create order request indicates
 * that the request is successfully accepted"), so the order is read back, with its fills from
 * GET /v5/execution/list; an order POST is sent once and an unanswered one (or one not read back) ends in
 * kind `unknown` for the caller to look up (docs/trading-rules.md §3).
 */
export class BybitExchange implements Exchange {
  readonly venue = 'bybit' as const;
  /** One-way mode: a Sell that is not reduce-only opens a short ([create-order] positionIdx 0, reduceOnly). */
  readonly opensShorts = true;
  readonly lateOrderWindowMs: number;
  private readonly client: bybit;
  private readonly retry: RetryPolicy;
  private readonly markets: MarketsCache;
  /** Symbols whose one-way mode and isolated margin were seen set this process. */
  private readonly futuresReady = new Set<string>();

  constructor(options: BybitExchangeOptions) {
    this.client = createBybitClient(options);
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.markets = new MarketsCache(
      options.marketsTtlMs ?? MARKETS_TTL_MS,
      (reload) => this.call((c) => c.loadMarkets(reload)),
      () => this.client.markets !== undefined,
    );
    this.lateOrderWindowMs = bybitLateOrderWindowMs(options);
  }

  async marketRules(symbol: string, market: MarketKind): Promise<MarketRules> {
    await this.loadMarkets();
    const found = Object.values(this.client.markets ?? {}).find(
      (m) => m?.id === symbol.toUpperCase() && (market === 'spot' ? m.spot : m.linear && m.swap),
    );
    if (!found) throw exchangeErrors.invalidSymbol();
    return rulesFromMarket(found, market);
  }

  async balances(wallet: WalletKind): Promise<Balance[]> {
    const accountType = wallet === 'spot' ? 'SPOT' : 'CONTRACT';
    const raw = await this.result((c) => c.privateGetV5AccountWalletBalance({ accountType })).catch(
      (error: unknown) => {
        const mapped = toBybitError(error);
        // [wallet-balance] a Unified Trading Account takes accountType UNIFIED only: no Spot or Contract wallet.
        if (bybitCodeOf(mapped) === 10001 && /accountType/i.test(mapped.userMessage))
          throw new ExchangeError('fatal', ErrorCode.invalidParameter, BYBIT_UNIFIED_ACCOUNT_MESSAGE, {
            cause: mapped,
          });
        throw mapped;
      },
    );
    return wallet === 'spot' ? bybitSpotBalances(raw) : bybitContractBalances(raw);
  }

  /** The key's rights, from GET /v5/user/query-api (any key may call it). */
  async keyPermissions(): Promise<ApiKeyPermissions> {
    return bybitKeyPermissions(await this.result((c) => c.privateGetV5UserQueryApi()));
  }

  usdtFree(): Promise<Record<WalletKind, string>> {
    return usdtFreeOf(this);
  }

  spotAssets(): Promise<AssetValue[]> {
    return valuedSpotAssets(this, (symbol) => this.lastPrice(symbol, 'spot'));
  }

  async placeOrder(input: PlaceOrderInput): Promise<Order> {
    const symbol = input.symbol.toUpperCase();
    const rules = await this.marketRules(symbol, input.market);
    const last = money(await this.lastPrice(symbol, input.market));
    const prepared = prepareOrder({ ...input, symbol }, rules, last);
    const known = await this.fetchOrder(input.market, symbol, input.clientOrderId);
    if (known.found) return known.order;
    const reduceOnly = input.market === 'future' && futuresReduceOnly(input);
    if (input.market === 'future') await this.ensureFuturesSetup(symbol, !reduceOnly);
    const orderLinkId = orderLinkIdOf(input.clientOrderId);
    const buy = input.side === 'buy';
    // [create-order] qty, classic account spot: "Market Buy order by value by default".
    const byValue = input.market === 'spot' && input.type === 'market' && buy;
    const params: Record<string, unknown> = {
      category: category(input.market),
      symbol,
      side: buy ? 'Buy' : 'Sell',
      orderType: input.type === 'limit' ? 'Limit' : 'Market',
      qty: byValue
        ? prepared.quantity.times(last).toDecimalPlaces(8, Money.ROUND_DOWN).toFixed()
        : prepared.quantity.toFixed(),
      orderLinkId,
    };
    if (prepared.price) {
      params.price = prepared.price.toFixed();
      params.timeInForce = 'GTC';
    }
    if (input.market === 'future') {
      params.positionIdx = 0;
      // [create-order] reduceOnly: "You must specify it as true when you are about to close/reduce the position".
      if (reduceOnly) params.reduceOnly = true;
    }
    return placeAndReadBack({
      exchange: 'Bybit',
      send: () => this.client.privatePostV5OrderCreate(params),
      toError: toBybitError,
      // orderLinkId "should be unique": a refused repeat means the order exists.
      isDuplicateId: (error) => DUPLICATE_LINK_ID_CODES.has(bybitCodeOf(error) ?? 0),
      lookUp: () => this.fetchOrder(input.market, symbol, input.clientOrderId),
    });
  }

  /**
   * [open-order] by orderLinkId (linear: open and recent closed orders; "Classic account spot can return
   * open orders only"), then [order-list] for the rest. An order with fills gets them from [execution].
   */
  async fetchOrder(market: MarketKind, symbol: string, clientOrderId: string): Promise<FetchOrderResult> {
    const query = {
      category: category(market),
      symbol: symbol.toUpperCase(),
      orderLinkId: orderLinkIdOf(clientOrderId),
    };
    let rows = listOf(await this.result((c) => c.privateGetV5OrderRealtime(query)));
    if (rows.length === 0) rows = listOf(await this.result((c) => c.privateGetV5OrderHistory(query)));
    const row = rows[0];
    if (!row) return { found: false };
    return { found: true, order: await this.withFills(market, row, clientOrderId) };
  }

  async cancelOrder(market: MarketKind, symbol: string, clientOrderId: string): Promise<Order> {
    const upper = symbol.toUpperCase();
    try {
      await this.result((c) =>
        c.privatePostV5OrderCancel({
          category: category(market),
          symbol: upper,
          orderLinkId: orderLinkIdOf(clientOrderId),
        }),
      );
    } catch (error) {
      const mapped = toBybitError(error);
      if (NO_SUCH_ORDER_CODES.has(bybitCodeOf(mapped) ?? 0)) throw exchangeErrors.unknownOrder(mapped);
      throw mapped;
    }
    const after = await this.fetchOrder(market, upper, clientOrderId);
    if (!after.found) throw exchangeErrors.unknownOrder();
    return after.order;
  }

  async openOrders(market: MarketKind, symbol?: string): Promise<Order[]> {
    const query: Raw = { category: category(market), openOnly: 0, limit: 50 };
    if (symbol) query.symbol = symbol.toUpperCase();
    else if (market === 'future') query.settleCoin = 'USDT';
    const rows = await this.allPages((q) => this.result((c) => c.privateGetV5OrderRealtime(q)), query);
    return Promise.all(rows.map((row) => this.withFills(market, row, String(row.orderLinkId ?? ''))));
  }

  async setLeverage(symbol: string, leverage: number): Promise<void> {
    const upper = symbol.toUpperCase();
    const rules = await this.marketRules(upper, 'future');
    if (!isAllowedLeverage(leverage, rules.maxLeverage)) throw exchangeErrors.invalidLeverage();
    await this.ensureOneWay(upper);
    const lev = String(leverage);
    // [cross-isolate] isolated margin with the leverage; 110026 "Cross/isolated margin mode is not modified".
    await this.ignoring(110026, (c) =>
      c.privatePostV5PositionSwitchIsolated({
        category: 'linear',
        symbol: upper,
        tradeMode: 1,
        buyLeverage: lev,
        sellLeverage: lev,
      }),
    );
    // [leverage] 110043 "Set leverage not modified": already so.
    await this.ignoring(110043, (c) =>
      c.privatePostV5PositionSetLeverage({
        category: 'linear',
        symbol: upper,
        buyLeverage: lev,
        sellLeverage: lev,
      }),
    );
    // Verified, not assumed: the position's own settings are what the next order uses.
    const row = (await this.positionRows({ symbol: upper }))[0];
    if (!row || Number(row.tradeMode) !== 1 || Number(row.leverage) !== leverage)
      throw new ExchangeError(
        'retryable',
        ErrorCode.unknown,
        `Bybit did not confirm ${leverage}× isolated margin on ${upper}; try again.`,
      );
    this.futuresReady.add(upper);
  }

  async position(symbol: string): Promise<FuturesPosition | undefined> {
    const rows = await this.positionRows({ symbol: symbol.toUpperCase() });
    return rows.map(positionFromBybit).find((p) => p !== undefined);
  }

  async positions(): Promise<FuturesPosition[]> {
    const rows = await this.positionRows({ settleCoin: 'USDT' });
    return rows.map(positionFromBybit).filter((p): p is FuturesPosition => p !== undefined);
  }

  /**
   * Closes Bybit made itself: [execution] rows of execType BustTrade ("Takeover liquidation") or AdlTrade
   * ("Auto-Deleveraging") of the symbol since `sinceMs`, by order, with the closed PnL Bybit booked for that
   * order (GET /v5/position/closed-pnl).
   */
  async forcedCloses(symbol: string, sinceMs: number): Promise<ForcedClose[]> {
    const upper = symbol.toUpperCase();
    const rows = listOf(
      await this.result((c) =>
        c.privateGetV5ExecutionList({ category: 'linear', symbol: upper, startTime: sinceMs, limit: 100 }),
      ),
    ).filter((r) => r.execType === 'BustTrade' || r.execType === 'AdlTrade');
    const byOrder = new Map<string, Raw[]>();
    for (const r of rows) byOrder.set(String(r.orderId), [...(byOrder.get(String(r.orderId)) ?? []), r]);
    if (byOrder.size === 0) return [];
    const pnl = listOf(
      await this.result((c) =>
        c.privateGetV5PositionClosedPnl({ category: 'linear', symbol: upper, startTime: sinceMs }),
      ),
    );
    const closes: ForcedClose[] = [];
    for (const [orderId, fills] of byOrder) {
      const totals = totalsOfExecutions(
        fills.map((f) => ({ ...f, execType: 'Trade' })),
        orderId,
        'USDT',
      );
      const qty = money(totals.qty);
      closes.push({
        symbol: upper,
        exchangeOrderId: orderId,
        reason: fills[0]?.execType === 'AdlTrade' ? 'adl' : 'liquidation',
        averagePrice: qty.isZero() ? '0' : money(totals.value).dividedBy(qty).toFixed(),
        quantity: totals.qty,
        quote: totals.value,
        fee: totals.fee,
        realizedPnl: money(String(pnl.find((p) => p.orderId === orderId)?.closedPnl ?? '0')).toFixed(),
        timeMs: Math.max(...fills.map((f) => Number(f.execTime ?? 0))),
      });
    }
    return closes.sort((a, b) => a.timeMs - b.timeMs);
  }

  /**
   * [inter-transfer] SPOT ↔ CONTRACT. Its transferId is the request's own id, so a retried request after a
   * lost answer carries the same one.
   */
  async transfer(direction: TransferDirection, amount: string): Promise<TransferResult> {
    const value = money(amount);
    if (!value.isFinite() || value.lte(0))
      throw exchangeErrors.invalidParameter("Illegal value for parameter 'amount'.");
    const [fromAccountType, toAccountType] =
      direction === 'spot_to_future' ? ['SPOT', 'CONTRACT'] : ['CONTRACT', 'SPOT'];
    const transferId = randomUUID();
    const raw = await this.result((c) =>
      c.privatePostV5AssetTransferInterTransfer({
        transferId,
        coin: 'USDT',
        amount: value.toFixed(),
        fromAccountType,
        toAccountType,
      }),
    );
    return {
      transferId: String(raw.transferId ?? transferId),
      direction,
      asset: 'USDT',
      amount: value.toFixed(),
    };
  }

  convertToUsdt(asset: string, amount?: string): Promise<ConvertResult> {
    return sellToUsdt(this, asset, amount);
  }

  /**
   * One-way mode before a symbol's first futures order, which sends positionIdx 0; isolated margin too
   * before an opening order. An exit only needs the mode: it must go out whatever the margin mode (Bybit
   * will not switch it while a position is open).
   */
  private async ensureFuturesSetup(symbol: string, opening: boolean): Promise<void> {
    if (this.futuresReady.has(symbol)) return;
    await this.ensureOneWay(symbol);
    if (!opening) return;
    const row = (await this.positionRows({ symbol }))[0];
    if (row && Number(row.tradeMode) !== 1) {
      const lev = String(row.leverage ?? '1');
      await this.ignoring(110026, (c) =>
        c.privatePostV5PositionSwitchIsolated({
          category: 'linear',
          symbol,
          tradeMode: 1,
          buyLeverage: lev,
          sellLeverage: lev,
        }),
      );
    }
    this.futuresReady.add(symbol);
  }

  /**
   * [position] hedge mode shows as rows of positionIdx 1 and 2. The symbol is switched to one-way
   * ([position-mode] mode 0); Bybit refuses that while it holds a position or open orders (110024,
   * 110028), and then the user must do it: a refusal with reason position_mode.
   */
  private async ensureOneWay(symbol: string): Promise<void> {
    const rows = await this.positionRows({ symbol });
    if (!rows.some((r) => Number(r.positionIdx) !== 0)) return;
    try {
      await this.ignoring(110025, (c) =>
        c.privatePostV5PositionSwitchMode({ category: 'linear', symbol, mode: 0 }),
      );
    } catch (error) {
      throw new ExchangeError('rejected', ErrorCode.positionSideMismatch, BYBIT_HEDGE_MODE_MESSAGE, {
        cause: error,
        reason: 'position_mode',
      });
    }
  }

  private positionRows(query: Raw): Promise<Raw[]> {
    return this.allPages((q) => this.result((c) => c.privateGetV5PositionList(q)), {
      category: 'linear',
      limit: 200,
      ...query,
    });
  }

  /** Every page of a listing: [open-order], [position] "Use the nextPageCursor token … to retrieve the next page". */
  private async allPages(read: (query: Raw) => Promise<Raw>, query: Raw): Promise<Raw[]> {
    const rows: Raw[] = [];
    for (let cursor: string | undefined; ; ) {
      const page = await read(cursor ? { ...query, cursor } : query);
      rows.push(...listOf(page));
      cursor =
        typeof page.nextPageCursor === 'string' && page.nextPageCursor !== ''
          ? page.nextPageCursor
          : undefined;
      if (!cursor) return rows;
    }
  }

  /** An order row with its fills ([execution] by orderId) when something filled. */
  private async withFills(market: MarketKind, row: Raw, clientOrderId: string): Promise<Order> {
    if (money(String(row.cumExecQty ?? '0')).isZero())
      return orderFromBybit(row, market, clientOrderId, undefined);
    const orderId = String(row.orderId);
    const executions = listOf(
      await this.result((c) =>
        c.privateGetV5ExecutionList({ category: category(market), orderId, limit: 100 }),
      ),
    );
    const rules = await this.marketRules(String(row.symbol), market);
    const feeCoin = market === 'spot' && row.side === 'Buy' ? rules.base : 'USDT';
    return orderFromBybit(row, market, clientOrderId, totalsOfExecutions(executions, orderId, feeCoin));
  }

  /** instruments-info of spot and linear, loaded at first use and again once a day. */
  private loadMarkets(): Promise<void> {
    return this.markets.ensure();
  }

  /** [market/tickers] lastPrice. */
  private async lastPrice(symbol: string, market: MarketKind): Promise<string> {
    const raw = await this.result((c) => c.publicGetV5MarketTickers({ category: category(market), symbol }));
    const row = listOf(raw)[0];
    if (!row) throw exchangeErrors.invalidSymbol();
    return String(row.lastPrice);
  }

  private async ignoring(code: number, fn: (client: bybit) => Promise<unknown>): Promise<void> {
    try {
      await this.call(fn);
    } catch (error) {
      const mapped = toBybitError(error);
      if (bybitCodeOf(mapped) !== code) throw mapped;
    }
  }

  /** The `result` of a V5 call. */
  private async result(fn: (client: bybit) => Promise<unknown>): Promise<Raw> {
    const body = (await this.call(fn)) as { result?: Raw } | undefined;
    return body?.result ?? {};
  }

  /** One ccxt call with error mapping and back-off; re-syncs the clock after 10002. */
  private call<T>(fn: (client: bybit) => Promise<T>): Promise<T> {
    return withRetry(
      this.retry,
      () => fn(this.client),
      toBybitError,
      async (error) => {
        if (error.code === ErrorCode.timestamp) await this.client.loadTimeDifference().catch(() => undefined);
      },
    );
  }
}

function listOf(result: Raw): Raw[] {
  return Array.isArray(result.list) ? (result.list as Raw[]) : [];
}
