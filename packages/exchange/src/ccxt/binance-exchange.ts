import { type MarketRules, money } from '@gridbot/shared';
import type { binance } from 'ccxt';
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
import { type BinanceClientOptions, createBinanceClients, lateOrderWindowMs } from './binance-clients';
import { HEDGE_MODE_MESSAGE, toExchangeError } from './ccxt-errors';
import { type ApiKeyPermissions, keyPermissionsOf } from './key-permissions';
import {
  feeOfTrades,
  forcedCloseOf,
  futuresBalances,
  orderFromFutures,
  orderFromSpot,
  positionFromRisk,
  rulesFromMarket,
  spotBalances,
  tradesOf,
} from './normalize';
import { DEFAULT_RETRY, type RetryPolicy, withRetry } from './retry';
import { sellToUsdt, usdtFreeOf, valuedSpotAssets } from './spot-wallet';

type Raw = Record<string, unknown>;

export interface BinanceExchangeOptions extends BinanceClientOptions {
  apiKey: string;
  secret: string;
  /** Back-off of retryable failures of reads (429/418, -1021, no answer). Tests pass a zero-delay sleep. */
  retry?: Partial<RetryPolicy>;
  /** How long loaded exchangeInfo rules are kept before they are read again (default a day). */
  marketsTtlMs?: number;
  /** How long a one-way answer of the position-mode look-up is taken as it is (default a minute). */
  positionModeTtlMs?: number;
}

/** Market rules are read again from exchangeInfo after this long. */
const MARKETS_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * A one-way answer of the position-mode look-up holds this long: it weighs 30 of the IP's 2400 a minute, and every
 * new position of every bot of the key would ask it again.
 */
const POSITION_MODE_TTL_MS = 60_000;

/**
 * The `Exchange` port on Binance through ccxt, for one user's API key. Orders are rounded and checked
 * with the same `prepareOrder` as the paper exchange before they are sent; rules come from ccxt's
 * loaded markets (Binance's exchangeInfo). A client order id is looked up before it is sent, so a repeat
 * returns the original order (Binance itself only refuses ids of *open* orders). An order POST is sent
 * once and never retried here: when its answer is lost the call fails with kind `unknown` and the caller
 * looks the order up (docs/trading-rules.md §3). Fees come from the order's fills, or from the account's trade list
 * when the order was read back (a queried order carries no fills).
 */
export class BinanceExchange implements Exchange {
  readonly venue = 'binance' as const;
  /** USDⓈ-M one-way mode: a sell that is not reduce-only opens a short ("New Order" reduceOnly). */
  readonly opensShorts = true;
  readonly lateOrderWindowMs: number;
  private readonly spot: binance;
  private readonly usdm: binance;
  private readonly retry: RetryPolicy;
  private marketsLoaded: Promise<void> | undefined;
  private positionModeCheck: Promise<void> | undefined;
  /** When the account last answered one-way (0: not known); taken as it is for `positionModeTtlMs`. */
  private oneWayAtMs = 0;
  private readonly positionModeTtlMs: number;
  /** The position read that gathers those who ask now, and the read before it, still on its way. */
  private nextPositionRead: { symbols: Set<string>; read: Promise<Map<string, FuturesPosition>> } | undefined;
  private positionReadOnItsWay: Promise<unknown> | undefined;
  private marketsLoadedAtMs = 0;
  private readonly marketsTtlMs: number;

  constructor(options: BinanceExchangeOptions) {
    this.marketsTtlMs = options.marketsTtlMs ?? MARKETS_TTL_MS;
    this.positionModeTtlMs = options.positionModeTtlMs ?? POSITION_MODE_TTL_MS;
    this.lateOrderWindowMs = lateOrderWindowMs(options);
    const clients = createBinanceClients(options);
    this.spot = clients.spot;
    this.usdm = clients.usdm;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  async marketRules(symbol: string, market: MarketKind): Promise<MarketRules> {
    await this.loadMarkets();
    const client = this.client(market);
    const found = Object.values(client.markets ?? {}).find(
      (m) => m?.id === symbol.toUpperCase() && (market === 'spot' ? m.spot : m.linear && m.swap),
    );
    if (!found) throw exchangeErrors.invalidSymbol();
    return rulesFromMarket(found, market);
  }

  async balances(wallet: WalletKind): Promise<Balance[]> {
    if (wallet === 'spot') return spotBalances(await this.call('spot', (c) => c.privateGetAccount()));
    return futuresBalances(await this.call('future', (c) => c.fapiPrivateV2GetBalance()));
  }

  /** The key's rights, through ccxt's implicit API for `GET /sapi/v1/account/apiRestrictions`. */
  async keyPermissions(): Promise<ApiKeyPermissions> {
    return keyPermissionsOf(await this.call('spot', (c) => c.sapiGetAccountApiRestrictions()));
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
    const params: Record<string, string> = {
      symbol,
      side: input.side === 'buy' ? 'BUY' : 'SELL',
      type: input.type === 'limit' ? 'LIMIT' : 'MARKET',
      quantity: prepared.quantity.toFixed(),
      newClientOrderId: input.clientOrderId,
    };
    if (prepared.price) {
      params.price = prepared.price.toFixed();
      // A resting grid order stays until it fills or is cancelled (GTC). Maker-only: spot LIMIT_MAKER, which
      // takes no timeInForce (rest-api.md "New order (TRADE)"); USDⓈ-M GTX, "Good Till Crossing (Post Only)".
      if (input.postOnly && input.market === 'spot') params.type = 'LIMIT_MAKER';
      else params.timeInForce = input.postOnly ? 'GTX' : 'GTC';
    }
    try {
      if (input.market === 'spot') {
        const raw = await this.sendOnce('spot', (c) =>
          c.privatePostOrder({ ...params, newOrderRespType: 'FULL' }),
        );
        return this.withSpotFee(raw);
      }
      if (futuresReduceOnly(input)) params.reduceOnly = 'true';
      const raw = await this.sendOnce('future', (c) =>
        c.fapiPrivatePostOrder({ ...params, newOrderRespType: 'RESULT' }),
      );
      return await this.withFuturesFee(raw);
    } catch (error) {
      const mapped = toExchangeError(error);
      // The account is in hedge mode after all: the next opening reads the mode again.
      if (mapped.reason === 'position_mode') this.oneWayAtMs = 0;
      // Binance refuses the id of an order that is still open: that order is the answer.
      const duplicate = /duplicate/i.test(mapped.userMessage) || mapped.code === -4116;
      if (!duplicate) throw mapped;
      const again = await this.fetchOrder(input.market, symbol, input.clientOrderId);
      if (again.found) return again.order;
      throw mapped;
    }
  }

  async fetchOrder(market: MarketKind, symbol: string, clientOrderId: string): Promise<FetchOrderResult> {
    const params = { symbol: symbol.toUpperCase(), origClientOrderId: clientOrderId };
    let raw: Raw;
    try {
      raw =
        market === 'spot'
          ? await this.call('spot', (c) => c.privateGetOrder(params))
          : await this.call('future', (c) => c.fapiPrivateGetOrder(params));
    } catch (error) {
      const mapped = toExchangeError(error);
      if (mapped.code === ErrorCode.noSuchOrder) return { found: false };
      throw mapped;
    }
    return {
      found: true,
      order: market === 'spot' ? await this.withSpotFee(raw) : await this.withFuturesFee(raw),
    };
  }

  /**
   * One-way mode is required: hedge mode refuses every order the platform sends. The account's bots that open
   * positions at the same moment share one look-up (weight 30 of the IP's 2400 a minute), and a one-way answer
   * holds for `positionModeTtlMs`: a switch to hedge mode meanwhile is refused by the order itself ([USDⓈ-M]
   * "Error Codes" -4061, with the same message, `fromBinanceCode`), after which the next opening asks again.
   */
  checkPositionMode(): Promise<void> {
    if (this.oneWayAtMs !== 0 && Date.now() - this.oneWayAtMs < this.positionModeTtlMs)
      return Promise.resolve();
    this.positionModeCheck ??= this.readPositionMode().finally(() => {
      this.positionModeCheck = undefined;
    });
    return this.positionModeCheck;
  }

  private async readPositionMode(): Promise<void> {
    const raw: Raw = await this.call('future', (c) => c.fapiPrivateGetPositionSideDual());
    if (raw.dualSidePosition === true || raw.dualSidePosition === 'true') {
      this.oneWayAtMs = 0;
      throw new ExchangeError('rejected', ErrorCode.positionSideMismatch, HEDGE_MODE_MESSAGE, {
        reason: 'position_mode',
      });
    }
    this.oneWayAtMs = Date.now();
  }

  async cancelOrder(market: MarketKind, symbol: string, clientOrderId: string): Promise<Order> {
    const params = { symbol: symbol.toUpperCase(), origClientOrderId: clientOrderId };
    if (market === 'spot') return orderFromSpot(await this.call('spot', (c) => c.privateDeleteOrder(params)));
    return orderFromFutures(await this.call('future', (c) => c.fapiPrivateDeleteOrder(params)));
  }

  async openOrders(market: MarketKind, symbol?: string): Promise<Order[]> {
    const params = symbol ? { symbol: symbol.toUpperCase() } : {};
    if (market === 'spot') {
      const rows: Raw[] = await this.call('spot', (c) => c.privateGetOpenOrders(params));
      return rows.map(orderFromSpot);
    }
    const rows: Raw[] = await this.call('future', (c) => c.fapiPrivateGetOpenOrders(params));
    return rows.map((row) => orderFromFutures(row));
  }

  async setLeverage(symbol: string, leverage: number): Promise<void> {
    const upper = symbol.toUpperCase();
    const rules = await this.marketRules(upper, 'future');
    if (!isAllowedLeverage(leverage, rules.maxLeverage)) {
      throw exchangeErrors.invalidLeverage();
    }
    await this.checkPositionMode();
    try {
      await this.call('future', (c) =>
        c.fapiPrivatePostMarginType({ symbol: upper, marginType: 'ISOLATED' }),
      );
    } catch (error) {
      // -4046 'No need to change margin type.': already isolated.
      if (toExchangeError(error).code !== -4046) throw toExchangeError(error);
    }
    await this.call('future', (c) =>
      c.fapiPrivatePostLeverage({ symbol: upper, leverage: String(leverage) }),
    );
    // Verified, not assumed: the position's own settings are what the next order will use.
    const rows: Raw[] = await this.call('future', (c) => c.fapiPrivateV2GetPositionRisk({ symbol: upper }));
    const row = rows.find((r) => String(r.symbol) === upper);
    if (!row || String(row.marginType).toLowerCase() !== 'isolated' || Number(row.leverage) !== leverage) {
      throw new ExchangeError(
        'retryable',
        ErrorCode.unknown,
        `Binance did not confirm ${leverage}× isolated margin on ${upper}; try again.`,
      );
    }
  }

  /**
   * The symbol's position. The bots of one key each read theirs after every order: reads asked while one is on
   * its way are gathered into the next, one request for all of their symbols ([futures] "Position Information
   * V2 (USER_DATA)", GET /fapi/v2/positionRisk: weight 5 with or without `symbol`, every symbol without it).
   * A read is never shared with one who asks after it was started: what it answers may predate their order.
   */
  async position(symbol: string): Promise<FuturesPosition | undefined> {
    const upper = symbol.toUpperCase();
    let next = this.nextPositionRead;
    if (!next) {
      const symbols = new Set<string>();
      const read = (this.positionReadOnItsWay ?? Promise.resolve())
        .catch(() => undefined)
        .then(() => {
          // From here on, who asks waits for the read after this one.
          if (this.nextPositionRead === next) this.nextPositionRead = undefined;
          return this.readPositions([...symbols]);
        });
      next = { symbols, read };
      this.nextPositionRead = next;
      this.positionReadOnItsWay = read;
    }
    next.symbols.add(upper);
    return (await next.read).get(upper);
  }

  /** One positionRisk request for the symbols (with `symbol` when there is one): their open positions. */
  private async readPositions(symbols: readonly string[]): Promise<Map<string, FuturesPosition>> {
    const only = symbols.length === 1 ? { symbol: symbols[0] as string } : {};
    const rows: Raw[] = await this.call('future', (c) => c.fapiPrivateV2GetPositionRisk(only));
    const open = new Map<string, FuturesPosition>();
    for (const row of rows) {
      const position = positionFromRisk(row);
      const symbol = String(row.symbol);
      if (position && symbols.includes(symbol) && !open.has(symbol)) open.set(symbol, position);
    }
    return open;
  }

  async positions(): Promise<FuturesPosition[]> {
    const rows: Raw[] = await this.call('future', (c) => c.fapiPrivateV2GetPositionRisk());
    return rows.map(positionFromRisk).filter((p): p is FuturesPosition => p !== undefined);
  }

  /**
   * [futures] "User's Force Orders (USER_DATA)", GET /fapi/v1/forceOrders (weight 20 with a symbol): the
   * liquidation and ADL orders of the account ("autoclose-…" / "adl_autoclose" client ids). Their
   * commission and realized PnL are on the order's trades, GET /fapi/v1/userTrades by orderId.
   */
  async forcedCloses(symbol: string, sinceMs: number): Promise<ForcedClose[]> {
    const upper = symbol.toUpperCase();
    const rows = (await this.call('future', (c) =>
      c.fapiPrivateGetForceOrders({ symbol: upper, startTime: String(sinceMs) }),
    )) as Raw[];
    const closes: ForcedClose[] = [];
    for (const row of rows.filter((r) => money(String(r.executedQty ?? '0')).gt(0))) {
      const trades: Raw[] = await this.call('future', (c) =>
        c.fapiPrivateGetUserTrades({ symbol: upper, orderId: String(row.orderId) }),
      );
      closes.push(forcedCloseOf(row, trades));
    }
    return closes.sort((a, b) => a.timeMs - b.timeMs);
  }

  async transfer(direction: TransferDirection, amount: string): Promise<TransferResult> {
    const value = money(amount);
    if (!value.isFinite() || value.lte(0))
      throw exchangeErrors.invalidParameter("Illegal value for parameter 'amount'.");
    const type = direction === 'spot_to_future' ? 'MAIN_UMFUTURE' : 'UMFUTURE_MAIN';
    const raw: Raw = await this.call('spot', (c) =>
      c.sapiPostAssetTransfer({ type, asset: 'USDT', amount: value.toFixed() }),
    );
    return { transferId: String(raw.tranId), direction, asset: 'USDT', amount: value.toFixed() };
  }

  convertToUsdt(asset: string, amount?: string): Promise<ConvertResult> {
    return sellToUsdt(this, asset, amount);
  }

  private client(market: MarketKind): binance {
    return market === 'spot' ? this.spot : this.usdm;
  }

  /** exchangeInfo of both venues, loaded at first use and again once a day (filters do change). */
  private loadMarkets(): Promise<void> {
    if (this.marketsLoaded && Date.now() - this.marketsLoadedAtMs > this.marketsTtlMs)
      this.marketsLoaded = undefined;
    if (!this.marketsLoaded) this.marketsLoadedAtMs = Date.now();
    const reload = this.marketsLoadedAtMs !== 0 && this.spot.markets !== undefined;
    this.marketsLoaded ??= Promise.all([
      this.call('spot', (c) => c.loadMarkets(reload)),
      this.call('future', (c) => c.loadMarkets(reload)),
    ]).then(
      () => undefined,
      (error: unknown) => {
        this.marketsLoaded = undefined;
        throw error;
      },
    );
    return this.marketsLoaded;
  }

  private async lastPrice(symbol: string, market: MarketKind): Promise<string> {
    const raw = (
      market === 'spot'
        ? await this.call('spot', (c) => c.publicGetTickerPrice({ symbol }))
        : await this.call('future', (c) => c.fapiPublicGetTickerPrice({ symbol }))
    ) as Raw;
    return String(raw.price);
  }

  /**
   * A spot order with its fee: from the FULL response's fills when present, else (a queried order
   * carries no fills) from GET /api/v3/myTrades of the order.
   */
  private async withSpotFee(raw: Raw): Promise<Order> {
    const order = orderFromSpot(raw);
    if (Array.isArray(raw.fills) || money(order.filledQuantity).isZero()) return order;
    const trades: Raw[] = await this.call('spot', (c) =>
      c.privateGetMyTrades({ symbol: String(raw.symbol), orderId: String(raw.orderId) }),
    );
    return { ...order, ...feeOfTrades(trades, order.feeAsset), trades: tradesOf(trades) };
  }

  /** A futures order with its commission from /fapi/v1/userTrades when something filled (the order body has none). */
  private async withFuturesFee(raw: Raw): Promise<Order> {
    if (money(String(raw.executedQty ?? '0')).isZero()) return orderFromFutures(raw);
    const trades: Raw[] = await this.call('future', (c) =>
      c.fapiPrivateGetUserTrades({ symbol: String(raw.symbol), orderId: String(raw.orderId) }),
    );
    const fee = feeOfTrades(trades, 'USDT');
    return { ...orderFromFutures(raw, fee.fee), feeAsset: fee.feeAsset, trades: tradesOf(trades) };
  }

  /**
   * An order POST: sent once, never retried (docs/trading-rules.md §3). A refusal keeps its kind; anything else (no
   * answer, connection reset, HTTP 5xx, -1000/-1001/-1007, a 429 or -1021 that may race an execution)
   * is `unknown`: the caller looks the order up by its client order id before sending again.
   */
  // biome-ignore lint/suspicious/noExplicitAny: Binance's raw JSON bodies are untyped in ccxt.
  private async sendOnce<T = any>(market: MarketKind, fn: (client: binance) => Promise<T>): Promise<T> {
    try {
      return await fn(this.client(market));
    } catch (error) {
      const mapped = toExchangeError(error);
      if (mapped.kind === 'rejected' || mapped.kind === 'fatal') throw mapped;
      throw exchangeErrors.outcomeUnknown(mapped);
    }
  }

  /** One ccxt call with error mapping and back-off; re-syncs the clock after -1021. */
  // biome-ignore lint/suspicious/noExplicitAny: Binance's raw JSON bodies are untyped in ccxt.
  private call<T = any>(market: MarketKind, fn: (client: binance) => Promise<T>): Promise<T> {
    const client = this.client(market);
    return withRetry(
      this.retry,
      () => fn(client),
      toExchangeError,
      async (error) => {
        if (error.code === ErrorCode.timestamp) await client.loadTimeDifference().catch(() => undefined);
      },
    );
  }
}
