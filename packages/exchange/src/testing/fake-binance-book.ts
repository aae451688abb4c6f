/**
 * The account behind the fake Binance server: spot balances, USDT-M wallet and positions, orders and
 * trades, kept as Binance keeps them. Every rule cites the section of Binance's documentation it follows:
 *   [spot rest-api.md] binance/binance-spot-api-docs rest-api.md ("New order (TRADE)", "Query order
 *     (USER_DATA)", "Account trade list (USER_DATA)", "Cancel order (TRADE)");
 *   [spot filters.md] binance/binance-spot-api-docs filters.md; [spot errors.md] errors.md;
 *   [futures] Binance USDⓈ-M futures docs ("New Order (TRADE)", "Query Order", "Account Trade List",
 *     "Position Information V2", "Change Margin Type", "Change Initial Leverage",
 *     "Get Current Position Mode", "Error Codes", "Leverage and Margin of USDⓈ-M Futures").
 */
import {
  allMarketRules,
  findMaintBrackets,
  findMarketRules,
  type MarketKind,
  type MarketRules,
  Money,
  money,
} from '@gridbot/shared';

import { checkGtx, checkMakerOnly, checkOpenOrderCount, checkPercentPrice } from './fake-binance-filters';
import { BinanceReject } from './fake-binance-reject';

export { BinanceReject };

export type BookOrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';

export interface BookOrder {
  market: MarketKind;
  symbol: string;
  orderId: number;
  clientOrderId: string;
  side: 'BUY' | 'SELL';
  type: 'MARKET' | 'LIMIT' | 'LIMIT_MAKER';
  status: BookOrderStatus;
  price: Money;
  origQty: Money;
  executedQty: Money;
  cumQuote: Money;
  reduceOnly: boolean;
  time: number;
  updateTime: number;
}

export interface BookTrade {
  market: MarketKind;
  symbol: string;
  id: number;
  orderId: number;
  side: 'BUY' | 'SELL';
  price: Money;
  qty: Money;
  quoteQty: Money;
  commission: Money;
  commissionAsset: string;
  realizedPnl: Money;
  maker: boolean;
  time: number;
}

export interface BookPosition {
  /** [futures] "Position Information V2" positionAmt: positive for a long, negative for a short. */
  qty: Money;
  entry: Money;
  /** Isolated wallet: the margin put in, less what partial closes released. */
  isolatedWallet: Money;
}

/** One tier of GET /fapi/v1/leverageBracket: maintenance margin = notional × mmr − cum. */
export interface LeverageBracket {
  notionalFloor: number;
  notionalCap: number;
  maintMarginRatio: number;
  initialLeverage: number;
  cum: number;
}

export interface NewOrderParams {
  symbol: string;
  side: string | undefined;
  type: string | undefined;
  quantity?: string | undefined;
  quoteOrderQty?: string | undefined;
  price?: string | undefined;
  timeInForce?: string | undefined;
  newClientOrderId?: string | undefined;
  reduceOnly?: string | undefined;
  positionSide?: string | undefined;
}

export interface BookOptions {
  now: () => number;
  /** Spot USDT at start (10,000 by default, as the exchange contract expects). */
  spotUsdt?: string;
  /** Leverage brackets per futures symbol; default: Binance's published brackets (the shared table). */
  brackets?: Record<string, readonly LeverageBracket[]>;
}

/** Spot taker/maker commission 0.1 % ([spot rest-api.md] "Account information": commissionRates). */
const SPOT_FEE = money('0.001');
/** Share of the standard commission charged when paid in BNB ([spot] "Query Commission Rates": discount). */
const BNB_DISCOUNT = money('0.75');
/** USDⓈ-M futures commission 0.05 % of notional, paid in USDT ([futures] "User Commission Rate"). */
const FUTURES_FEE = money('0.0005');
/**
 * USDⓈ-M maker commission of an order that rested on the book, 0.02 % ([futures] "User Commission Rate":
 * makerCommissionRate "0.0002"); spot makers pay the same 0.1 % as takers ("Account information":
 * commissionRates maker 0.001).
 */
const FUTURES_MAKER_FEE = money('0.0002');
/** [futures] "Change Initial Leverage": a new symbol starts at 20×. */
const DEFAULT_LEVERAGE = 20;
const ZERO = money(0);

const isMultiple = (value: Money, step: string) => money(step).isZero() || value.mod(step).isZero();
const open = (o: BookOrder) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';

/**
 * The shared table's brackets of a symbol as GET /fapi/v1/leverageBracket lists them. The table keeps no
 * per-tier leverage, so every tier allows the symbol's maximum (the platform never goes above 10×).
 */
function publishedBrackets(symbol: string): LeverageBracket[] | undefined {
  const initialLeverage = findMarketRules(symbol, 'future')?.maxLeverage ?? 20;
  let floor = 0;
  return findMaintBrackets(symbol)?.map(([cap, rate, cum]) => {
    const tier = { notionalFloor: floor, notionalCap: cap, maintMarginRatio: rate, initialLeverage, cum };
    floor = cap;
    return tier;
  });
}

export class FakeBinanceBook {
  readonly prices = new Map<string, Money>();
  readonly spot = new Map<string, { free: Money; locked: Money }>();
  /** USDⓈ-M cross wallet balance in USDT (isolated wallets are held apart in `positions`). */
  futuresWallet = ZERO;
  readonly positions = new Map<string, BookPosition>();
  readonly leverage = new Map<string, number>();
  readonly marginType = new Map<string, 'ISOLATED' | 'CROSSED'>();
  /** [futures] "Get Current Position Mode": false = one-way mode. */
  dualSidePosition = false;
  /** The account pays spot fees in BNB (Binance's "spotBNBBurn" setting); off by default. */
  payFeesInBnb = false;
  readonly orders: BookOrder[] = [];
  readonly trades: BookTrade[] = [];
  /** Positions the exchange closed itself (liquidation), for tests. */
  readonly liquidations: { symbol: string; qty: Money; price: Money; lostMargin: Money }[] = [];
  private nextOrderId = 1000;
  private nextTradeId = 5000;

  constructor(private readonly options: BookOptions) {
    this.spot.set('USDT', { free: money(options.spotUsdt ?? '10000'), locked: ZERO });
    for (const rules of allMarketRules()) this.prices.set(key(rules.symbol, rules.market), money(1));
  }

  /** Filters that differ from the shared table (Binance changes them): served by exchangeInfo and enforced. */
  readonly ruleOverrides = new Map<string, MarketRules>();

  /** Every symbol's rules as exchangeInfo lists them. */
  allRules(): MarketRules[] {
    return allMarketRules().map((r) => this.ruleOverrides.get(key(r.symbol, r.market)) ?? r);
  }

  rules(symbol: string | undefined, market: MarketKind): MarketRules {
    const rules = symbol
      ? (this.ruleOverrides.get(key(symbol, market)) ?? findMarketRules(symbol, market))
      : undefined;
    // [spot errors.md] -1121 Invalid symbol.
    if (!rules) throw new BinanceReject(400, -1121, 'Invalid symbol.');
    return rules;
  }

  price(symbol: string, market: MarketKind): Money {
    return this.prices.get(key(symbol, market)) ?? money(1);
  }

  /**
   * Moves the market: resting limit orders the price reaches fill at their own limit price as makers (a buy
   * when the price comes down to it, a sell when it comes up to it); a futures position at its liquidation
   * price is closed. `volume`: the base quantity traded against the account's resting orders on this move; they
   * fill in price priority (the best price first: the highest buy, the lowest sell; then the oldest), and an
   * order the volume does not cover fills in part and stays on the book PARTIALLY_FILLED ([spot
   * rest-api.md] "ENUM definitions", order status PARTIALLY_FILLED: "A part of the order has been filled").
   * Without `volume` every order reached fills whole.
   */
  setPrice(symbol: string, market: MarketKind, price: string, volume?: string): void {
    const p = money(price);
    this.prices.set(key(symbol, market), p);
    let left = volume === undefined ? undefined : money(volume);
    const reached = this.orders
      .filter((o) => o.market === market && o.symbol === symbol && open(o) && o.type !== 'MARKET')
      .filter((o) => (o.side === 'BUY' ? p.lte(o.price) : p.gte(o.price)))
      .sort((a, b) => {
        const better = a.side === 'BUY' ? b.price.comparedTo(a.price) : a.price.comparedTo(b.price);
        return a.side !== b.side ? 0 : better !== 0 ? better : a.orderId - b.orderId;
      });
    for (const order of reached) {
      if (left?.lte(0)) break;
      const rest = order.origQty.minus(order.executedQty);
      const qty = left === undefined || left.gte(rest) ? rest : left;
      this.execute(order, order.price, true, qty);
      if (left !== undefined) left = left.minus(qty);
    }
    if (market === 'future') this.checkLiquidation(symbol);
  }

  balance(asset: string) {
    let row = this.spot.get(asset);
    if (!row) {
      row = { free: ZERO, locked: ZERO };
      this.spot.set(asset, row);
    }
    return row;
  }

  /** [spot rest-api.md] "New order (TRADE)" and [futures] "New Order (TRADE)". */
  newOrder(market: MarketKind, p: NewOrderParams): BookOrder {
    const rules = this.rules(p.symbol, market);
    const side = p.side === 'BUY' || p.side === 'SELL' ? p.side : undefined;
    if (!side)
      throw new BinanceReject(
        400,
        -1102,
        "Mandatory parameter 'side' was not sent, was empty/null, or malformed.",
      );
    // Only the order types the platform sends are modelled; others get -1116 ([spot errors.md]). LIMIT_MAKER
    // is a spot type ([spot rest-api.md] "New order (TRADE)"); USDⓈ-M has no such type.
    const type =
      p.type === 'MARKET' || p.type === 'LIMIT' || (p.type === 'LIMIT_MAKER' && market === 'spot')
        ? p.type
        : undefined;
    if (!type) throw new BinanceReject(400, -1116, 'Invalid orderType.');
    const limit = type !== 'MARKET';
    if (market === 'future') {
      // [futures] "New Order": positionSide defaults to BOTH, which hedge mode refuses
      // ("Error Codes" -4061 "Order's position side does not match user's setting.").
      const positionSide = p.positionSide ?? 'BOTH';
      if (this.dualSidePosition === (positionSide === 'BOTH'))
        throw new BinanceReject(400, -4061, "Order's position side does not match user's setting.");
    }
    const clientOrderId = p.newClientOrderId ?? `x-${this.nextOrderId}`;
    // [spot rest-api.md] newClientOrderId: "A unique id among open orders... Orders with the same
    // newClientOrderID can be accepted only when the previous one is filled, otherwise the order will be
    // rejected." [futures] -4116 "ClientOrderId is duplicated." for an id of an open order.
    if (this.orders.some((o) => o.market === market && o.clientOrderId === clientOrderId && open(o))) {
      throw market === 'spot'
        ? new BinanceReject(400, -2010, 'Duplicate order sent.')
        : new BinanceReject(400, -4116, 'ClientOrderId is duplicated.');
    }
    const last = this.price(rules.symbol, market);
    let price = ZERO;
    if (limit) {
      // [spot rest-api.md] "New order (TRADE)": LIMIT needs timeInForce, quantity, price; LIMIT_MAKER
      // quantity and price.
      if (!p.price || (type === 'LIMIT' && !p.timeInForce))
        throw new BinanceReject(
          400,
          -1102,
          "Mandatory parameter 'price' was not sent, was empty/null, or malformed.",
        );
      price = money(p.price);
      // [spot filters.md] PRICE_FILTER: price >= minPrice and (price - minPrice) % tickSize == 0.
      // [futures] "Error Codes" -4014 "Price not increased by tick size."
      if (!isMultiple(price, rules.tickSize) || price.lt(rules.tickSize)) {
        throw market === 'spot'
          ? new BinanceReject(400, -1013, 'Filter failure: PRICE_FILTER')
          : new BinanceReject(400, -4014, 'Price not increased by tick size.');
      }
    }
    const reduceOnly = market === 'future' && p.reduceOnly === 'true';
    let qty: Money;
    if (p.quantity) {
      qty = money(p.quantity);
    } else if (market === 'spot' && type === 'MARKET' && side === 'BUY' && p.quoteOrderQty) {
      // [spot rest-api.md] "MARKET orders using quoteOrderQty will not break LOT_SIZE filter rules".
      qty = money(p.quoteOrderQty).dividedBy(last);
      qty = qty.minus(qty.mod(rules.stepSize));
    } else {
      throw new BinanceReject(
        400,
        -1102,
        "Mandatory parameter 'quantity' was not sent, was empty/null, or malformed.",
      );
    }
    this.checkQuantity(market, type, qty, rules);
    const checkPrice = limit ? price : last;
    const notional = qty.times(checkPrice);
    if (notional.lt(rules.minNotional)) {
      // [spot filters.md] NOTIONAL: price × quantity >= minNotional (applyMinToMarket: true).
      if (market === 'spot') throw new BinanceReject(400, -1013, 'Filter failure: NOTIONAL');
      // [futures] "Error Codes" -4164: "Order's notional must be no smaller than %s (unless you choose
      // reduce only)": a reduce-only order is exempt.
      if (!reduceOnly)
        throw new BinanceReject(
          400,
          -4164,
          `Order's notional must be no smaller than ${rules.minNotional} (unless you choose reduce only)`,
        );
    }
    const crosses = !limit || (side === 'BUY' ? last.lte(price) : last.gte(price));
    if (limit) {
      checkPercentPrice(market, rules, side, price, last);
      checkOpenOrderCount(market, rules, this.openOrders(market, rules.symbol).length);
    }
    if (type === 'LIMIT_MAKER') checkMakerOnly(crosses);
    if (market === 'future' && type === 'LIMIT' && p.timeInForce === 'GTX') checkGtx(crosses);
    const now = this.options.now();
    const order: BookOrder = {
      market,
      symbol: rules.symbol,
      orderId: this.nextOrderId++,
      clientOrderId,
      side,
      type,
      status: 'NEW',
      price,
      origQty: qty,
      executedQty: ZERO,
      cumQuote: ZERO,
      reduceOnly,
      time: now,
      updateTime: now,
    };
    if (market === 'spot') this.admitSpot(order, rules, checkPrice);
    else this.admitFutures(order, checkPrice);
    this.orders.push(order);
    if (crosses) this.execute(order, last, false);
    return order;
  }

  /**
   * [spot filters.md] LOT_SIZE / MARKET_LOT_SIZE: quantity >= minQty, <= maxQty and
   * (quantity - minQty) % stepSize == 0. [futures] "Error Codes": -1111 "Precision is over the maximum
   * defined for this asset." for a quantity off the step, -4005 above the maximum.
   */
  private checkQuantity(market: MarketKind, type: BookOrder['type'], qty: Money, rules: MarketRules): void {
    const filter = type === 'MARKET' ? 'MARKET_LOT_SIZE' : 'LOT_SIZE';
    const maxQty = money(type === 'MARKET' ? (market === 'spot' ? '9000' : '120') : '9000000');
    if (qty.lte(0))
      throw new BinanceReject(
        400,
        market === 'spot' ? -1013 : -4003,
        market === 'spot' ? `Filter failure: ${filter}` : 'Quantity less than or equal to zero.',
      );
    if (market === 'spot') {
      if (qty.lt(rules.minQty) || qty.gt(maxQty) || !isMultiple(qty.minus(rules.minQty), rules.stepSize))
        throw new BinanceReject(400, -1013, `Filter failure: ${filter}`);
      return;
    }
    if (!isMultiple(qty, rules.stepSize))
      throw new BinanceReject(400, -1111, 'Precision is over the maximum defined for this asset.');
    if (qty.gt(maxQty)) throw new BinanceReject(400, -4005, 'Quantity greater than max quantity.');
    if (qty.lt(rules.minQty)) throw new BinanceReject(400, -1013, `Filter failure: ${filter}`);
  }

  /** [spot errors.md] -2010 "Account has insufficient balance for requested action."; limit orders lock funds. */
  private admitSpot(order: BookOrder, rules: MarketRules, price: Money): void {
    const insufficient = () =>
      new BinanceReject(400, -2010, 'Account has insufficient balance for requested action.');
    if (order.side === 'BUY') {
      const usdt = this.balance('USDT');
      const cost = order.origQty.times(price);
      if (usdt.free.lt(cost)) throw insufficient();
      if (order.type !== 'MARKET') {
        usdt.free = usdt.free.minus(cost);
        usdt.locked = usdt.locked.plus(cost);
      }
    } else {
      const base = this.balance(rules.base);
      if (base.free.lt(order.origQty)) throw insufficient();
      if (order.type !== 'MARKET') {
        base.free = base.free.minus(order.origQty);
        base.locked = base.locked.plus(order.origQty);
      }
    }
  }

  /**
   * [futures] "New Order" (one-way mode, positionSide BOTH): reduceOnly "true" can only reduce the position,
   * so a reduce-only order needs a position on the other side at least its size (a sell a long, a buy a
   * short), else -2022 "ReduceOnly Order is rejected." ("Error Codes"). An order that is not reduce-only
   * first reduces the opposite position and opens (or adds to) one on its own side with the rest: a sell
   * with no long opens a short. What it opens needs its initial margin (notional / leverage) plus the fee
   * free in the wallet, else -2019 "Margin is insufficient.".
   */
  private admitFutures(order: BookOrder, price: Money): void {
    const held = this.positions.get(order.symbol)?.qty ?? ZERO;
    const against = order.side === 'BUY' ? held.negated() : held;
    const reducible = against.gt(0) ? against : ZERO;
    if (order.reduceOnly) {
      if (reducible.lt(order.origQty)) throw new BinanceReject(400, -2022, 'ReduceOnly Order is rejected.');
      return;
    }
    const opening = order.origQty.minus(reducible);
    if (opening.lte(0)) return;
    const notional = opening.times(price);
    const margin = notional.dividedBy(this.leverageOf(order.symbol));
    if (this.futuresAvailable().lt(margin.plus(notional.times(FUTURES_FEE))))
      throw new BinanceReject(400, -2019, 'Margin is insufficient.');
  }

  /**
   * The commission of a spot trade of `quote` USDT when the account pays fees in BNB, or undefined when it
   * does not (or holds too little BNB, then the asset received pays as usual). [spot rest-api.md] "Query
   * Commission Rates" (GET /api/v3/account/commission): `discount.discountAsset` "BNB", "standard commission
   * is reduced by this rate when paying commission in BNB" (0.75 here); the amount is the USDT commission
   * at BNB's price, to 8 decimals, as `commission` in "Account trade list".
   */
  private bnbCommission(symbol: string, quote: Money): Money | undefined {
    if (!this.payFeesInBnb || symbol === 'BNBUSDT') return undefined;
    const usdt = quote.times(SPOT_FEE).times(BNB_DISCOUNT);
    const amount = usdt.dividedBy(this.price('BNBUSDT', 'spot')).toDecimalPlaces(8, Money.ROUND_UP);
    return this.balance('BNB').free.gte(amount) ? amount : undefined;
  }

  leverageOf(symbol: string): number {
    return this.leverage.get(symbol) ?? DEFAULT_LEVERAGE;
  }

  futuresAvailable(): Money {
    return this.futuresWallet;
  }

  /**
   * Fills `qty` of an order (default: all that is left) at `price`: one trade, commission in the asset
   * received (spot) or USDT. Part of an order leaves it PARTIALLY_FILLED, still open.
   */
  private execute(order: BookOrder, price: Money, maker: boolean, part?: Money): void {
    const qty = part ?? order.origQty.minus(order.executedQty);
    const quote = qty.times(price);
    const rules = this.rules(order.symbol, order.market);
    let commission: Money;
    let commissionAsset: string;
    let realizedPnl = ZERO;
    if (order.market === 'spot') {
      // [spot rest-api.md] "Account trade list": commission is charged in commissionAsset, the asset the
      // trade credits (the base on a buy, USDT on a sell) when BNB fee payment is off.
      const base = this.balance(rules.base);
      const usdt = this.balance('USDT');
      const inBnb = this.bnbCommission(order.symbol, quote);
      if (inBnb) {
        commission = inBnb;
        commissionAsset = 'BNB';
        const bnb = this.balance('BNB');
        bnb.free = bnb.free.minus(inBnb);
        if (order.side === 'BUY') {
          if (order.type !== 'MARKET') usdt.locked = usdt.locked.minus(qty.times(order.price));
          else usdt.free = usdt.free.minus(quote);
          if (order.type !== 'MARKET') usdt.free = usdt.free.plus(qty.times(order.price)).minus(quote);
          base.free = base.free.plus(qty);
        } else {
          if (order.type !== 'MARKET') base.locked = base.locked.minus(qty);
          else base.free = base.free.minus(qty);
          usdt.free = usdt.free.plus(quote);
        }
      } else if (order.side === 'BUY') {
        commission = qty.times(SPOT_FEE);
        commissionAsset = rules.base;
        if (order.type !== 'MARKET') usdt.locked = usdt.locked.minus(qty.times(order.price));
        else usdt.free = usdt.free.minus(quote);
        // A resting buy that fills below its limit returns the difference.
        if (order.type !== 'MARKET') usdt.free = usdt.free.plus(qty.times(order.price)).minus(quote);
        base.free = base.free.plus(qty).minus(commission);
      } else {
        commission = quote.times(SPOT_FEE);
        commissionAsset = 'USDT';
        if (order.type !== 'MARKET') base.locked = base.locked.minus(qty);
        else base.free = base.free.minus(qty);
        usdt.free = usdt.free.plus(quote).minus(commission);
      }
    } else {
      commission = quote.times(maker ? FUTURES_MAKER_FEE : FUTURES_FEE);
      commissionAsset = 'USDT';
      realizedPnl = this.applyFuturesFill(order, qty, price);
      this.futuresWallet = this.futuresWallet.minus(commission);
    }
    const now = this.options.now();
    order.executedQty = order.executedQty.plus(qty);
    order.cumQuote = order.cumQuote.plus(quote);
    order.status = order.executedQty.gte(order.origQty) ? 'FILLED' : 'PARTIALLY_FILLED';
    order.updateTime = now;
    this.trades.push({
      market: order.market,
      symbol: order.symbol,
      id: this.nextTradeId++,
      orderId: order.orderId,
      side: order.side,
      price,
      qty,
      quoteQty: quote,
      commission,
      commissionAsset,
      realizedPnl,
      maker,
      time: now,
    });
  }

  /**
   * Isolated one-way position ([futures] "Leverage and Margin of USDⓈ-M Futures"; "Position Information V2":
   * positionAmt is signed, negative for a short). A fill against the position closes it first: it keeps
   * the entry, releases margin in proportion to the quantity closed and books the realized PnL ("Account
   * Trade List" realizedPnl): (price − entry) × qty for a long, (entry − price) × qty for a short. What is
   * left of the fill opens or adds on its own side: notional / leverage moves from the wallet into the
   * isolated margin and the entry is averaged.
   */
  private applyFuturesFill(order: BookOrder, qty: Money, price: Money): Money {
    const position = this.positions.get(order.symbol) ?? { qty: ZERO, entry: ZERO, isolatedWallet: ZERO };
    const sign = order.side === 'BUY' ? 1 : -1;
    let rest = qty;
    let pnl = ZERO;
    if (!position.qty.isZero() && position.qty.isNegative() !== sign < 0) {
      const size = position.qty.abs();
      const closed = Money.min(rest, size);
      const released = position.isolatedWallet.times(closed).dividedBy(size);
      pnl = price
        .minus(position.entry)
        .times(closed)
        .times(position.qty.isNegative() ? -1 : 1);
      position.qty = position.qty.plus(closed.times(sign));
      position.isolatedWallet = position.isolatedWallet.minus(released);
      this.futuresWallet = this.futuresWallet.plus(released).plus(pnl);
      rest = rest.minus(closed);
      if (position.qty.isZero()) {
        position.entry = ZERO;
        position.isolatedWallet = ZERO;
        this.positions.delete(order.symbol);
      }
    }
    if (rest.gt(0)) {
      const margin = rest.times(price).dividedBy(this.leverageOf(order.symbol));
      const size = position.qty.abs();
      position.entry = size.times(position.entry).plus(rest.times(price)).dividedBy(size.plus(rest));
      position.qty = position.qty.plus(rest.times(sign));
      position.isolatedWallet = position.isolatedWallet.plus(margin);
      this.futuresWallet = this.futuresWallet.minus(margin);
      this.positions.set(order.symbol, position);
    }
    return pnl;
  }

  /**
   * [futures] "Notional and Leverage Brackets (USER_DATA)", GET /fapi/v1/leverageBracket: a position whose
   * notional is in [notionalFloor, notionalCap) uses that bracket's maintMarginRatio and cum. Without
   * brackets given, the published ones of the symbol (the shared table, from that endpoint).
   */
  bracketOf(symbol: string, notional: Money): LeverageBracket {
    const tiers = this.options.brackets?.[symbol] ?? publishedBrackets(symbol);
    const found = tiers?.find((t) => notional.gte(t.notionalFloor) && notional.lt(t.notionalCap));
    if (found) return found;
    const rules = this.rules(symbol, 'future');
    return {
      notionalFloor: 0,
      notionalCap: Number.MAX_SAFE_INTEGER,
      maintMarginRatio: rules.maintMarginRate,
      initialLeverage: rules.maxLeverage,
      cum: 0,
    };
  }

  /**
   * The exchange's liquidation price of an isolated one-way position ([futures] "Leverage and Margin",
   * liquidation price): (WB + cum − side × Q × E) / (Q × mmr − side × Q), side 1 for a long and −1 for a
   * short, Q the size, WB the isolated wallet, mmr and cum from the position's leverage bracket. A long:
   * (Q × E − WB − cum) / (Q × (1 − mmr)); a short: (Q × E + WB + cum) / (Q × (1 + mmr)).
   */
  liquidationPrice(symbol: string): Money | undefined {
    const position = this.positions.get(symbol);
    if (!position) return undefined;
    const size = position.qty.abs();
    const side = position.qty.isNegative() ? -1 : 1;
    const bracket = this.bracketOf(symbol, size.times(position.entry));
    const liq = position.isolatedWallet
      .plus(bracket.cum)
      .minus(size.times(position.entry).times(side))
      .dividedBy(size.times(bracket.maintMarginRatio).minus(size.times(side)));
    return liq.lt(0) ? ZERO : liq;
  }

  /**
   * Whether an isolated long is to be liquidated at mark price `mark`, by Binance's rule rather than by
   * the liquidation price formula (which the engine shares, so a test of one against the other would
   * prove nothing): Binance FAQ "Liquidation Protocols" (binance.com/en/support/faq/360033525271):
   * "Margin Ratio = Maintenance Margin / Margin Balance", liquidated when the margin ratio hits 100 %,
   * unrealized PnL "calculated based on the Mark Price". Margin balance of an isolated position = its
   * isolated wallet + unrealized PnL (Q × (mark − E)); maintenance margin = notional at the mark price ×
   * maintMarginRatio − cum of the bracket that notional falls in ([futures] "Notional and Leverage
   * Brackets", GET /fapi/v1/leverageBracket: "cum: Auxiliary number for quick calculation").
   */
  private marginExhausted(symbol: string, position: BookPosition, mark: Money): boolean {
    // A short's unrealized PnL is Q × (mark − E) with Q negative (positionAmt), its notional |Q| × mark.
    const notional = position.qty.abs().times(mark);
    const bracket = this.bracketOf(symbol, notional);
    const maintenance = notional.times(bracket.maintMarginRatio).minus(bracket.cum);
    const balance = position.isolatedWallet.plus(mark.minus(position.entry).times(position.qty));
    return balance.lte(maintenance);
  }

  /**
   * The exchange closes a position (a long with a sell, a short with a buy) whose margin its mark price (the double's price) has exhausted; the
   * isolated wallet is lost. The close fills at that mark price (the insurance fund takes what is left
   * of the margin: Binance FAQ "Liquidation Protocols").
   */
  private checkLiquidation(symbol: string): void {
    const position = this.positions.get(symbol);
    const mark = this.price(symbol, 'future');
    if (!position || !this.marginExhausted(symbol, position, mark)) return;
    const now = this.options.now();
    const size = position.qty.abs();
    const side = position.qty.isNegative() ? 'BUY' : 'SELL';
    // A liquidation shows as an order with client id "autoclose-…" ([futures] "Query Order").
    const order: BookOrder = {
      market: 'future',
      symbol,
      orderId: this.nextOrderId++,
      clientOrderId: `autoclose-${now}`,
      side,
      type: 'MARKET',
      status: 'FILLED',
      price: ZERO,
      origQty: size,
      executedQty: size,
      cumQuote: size.times(mark),
      reduceOnly: true,
      time: now,
      updateTime: now,
    };
    this.orders.push(order);
    this.trades.push({
      market: 'future',
      symbol,
      id: this.nextTradeId++,
      orderId: order.orderId,
      side,
      price: mark,
      qty: size,
      quoteQty: order.cumQuote,
      commission: ZERO,
      commissionAsset: 'USDT',
      realizedPnl: position.isolatedWallet.negated(),
      maker: false,
      time: now,
    });
    this.liquidations.push({ symbol, qty: size, price: mark, lostMargin: position.isolatedWallet });
    this.positions.delete(symbol);
  }

  /**
   * [futures] "User's Force Orders (USER_DATA)", GET /fapi/v1/forceOrders: the account's liquidation
   * ("autoclose-…") orders of a symbol from `startTime` on (the docs' default window is the last 7 days).
   */
  forceOrders(symbol: string | undefined, startTime: number | undefined): BookOrder[] {
    const from = startTime ?? this.options.now() - 7 * 86_400_000;
    return this.orders.filter(
      (o) =>
        o.market === 'future' &&
        o.clientOrderId.startsWith('autoclose-') &&
        (symbol === undefined || o.symbol === symbol) &&
        o.time >= from,
    );
  }

  /** [spot rest-api.md] "Query order": the order with this client id (the latest, ids may be reused). */
  findOrder(
    market: MarketKind,
    symbol: string,
    p: { origClientOrderId?: string; orderId?: string },
  ): BookOrder {
    if (!p.origClientOrderId && !p.orderId)
      throw new BinanceReject(
        400,
        -1102,
        "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!",
      );
    const found = this.orders
      .filter(
        (o) =>
          o.market === market &&
          o.symbol === symbol &&
          (p.orderId ? String(o.orderId) === p.orderId : o.clientOrderId === p.origClientOrderId),
      )
      .at(-1);
    // [spot errors.md] -2013 "Order does not exist."
    if (!found) throw new BinanceReject(400, -2013, 'Order does not exist.');
    return found;
  }

  /**
   * The exchange ends an open order itself: [spot enums.md] order status EXPIRED, "The order was canceled
   * according to the order type's rules (...) or by the exchange, (e.g. orders canceled during liquidation,
   * orders canceled during maintenance)". What it filled stays filled; its rest is released.
   */
  expire(market: MarketKind, symbol: string, clientOrderId: string): BookOrder {
    const order = this.cancel(market, symbol, { origClientOrderId: clientOrderId });
    order.status = 'EXPIRED';
    return order;
  }

  /** [spot rest-api.md] "Cancel order": only an open order; otherwise -2011 "Unknown order sent.". */
  cancel(market: MarketKind, symbol: string, p: { origClientOrderId?: string; orderId?: string }): BookOrder {
    const order = this.orders
      .filter(
        (o) =>
          o.market === market &&
          o.symbol === symbol &&
          open(o) &&
          (p.orderId ? String(o.orderId) === p.orderId : o.clientOrderId === p.origClientOrderId),
      )
      .at(-1);
    if (!order) throw new BinanceReject(400, -2011, 'Unknown order sent.');
    if (market === 'spot') {
      const rules = this.rules(symbol, 'spot');
      const rest = order.origQty.minus(order.executedQty);
      const row = order.side === 'BUY' ? this.balance('USDT') : this.balance(rules.base);
      const held = order.side === 'BUY' ? rest.times(order.price) : rest;
      row.locked = row.locked.minus(held);
      row.free = row.free.plus(held);
    }
    order.status = 'CANCELED';
    order.updateTime = this.options.now();
    return order;
  }

  /** [spot rest-api.md] "User universal transfer" MAIN_UMFUTURE / UMFUTURE_MAIN. */
  transfer(type: string, asset: string, amount: string): void {
    const value = money(amount);
    if (asset !== 'USDT' || !value.isFinite() || value.lte(0))
      throw new BinanceReject(400, -1102, "Illegal value for parameter 'amount'.");
    const usdt = this.balance('USDT');
    const insufficient = new BinanceReject(
      400,
      -2010,
      'Account has insufficient balance for requested action.',
    );
    if (type === 'MAIN_UMFUTURE') {
      if (usdt.free.lt(value)) throw insufficient;
      usdt.free = usdt.free.minus(value);
      this.futuresWallet = this.futuresWallet.plus(value);
    } else if (type === 'UMFUTURE_MAIN') {
      if (this.futuresAvailable().lt(value)) throw insufficient;
      this.futuresWallet = this.futuresWallet.minus(value);
      usdt.free = usdt.free.plus(value);
    } else {
      throw new BinanceReject(400, -1102, 'Illegal transfer type.');
    }
  }

  /**
   * [futures] "Change Margin Type": -4046 "No need to change margin type." when it already is;
   * -4048 "Margin type cannot be changed if there exists position.".
   */
  setMarginType(symbol: string, marginType: string): void {
    this.rules(symbol, 'future');
    const wanted = marginType === 'ISOLATED' ? 'ISOLATED' : marginType === 'CROSSED' ? 'CROSSED' : undefined;
    if (!wanted) throw new BinanceReject(400, -1102, "Illegal value for parameter 'marginType'.");
    if ((this.marginType.get(symbol) ?? 'CROSSED') === wanted)
      throw new BinanceReject(400, -4046, 'No need to change margin type.');
    if (this.positions.has(symbol))
      throw new BinanceReject(400, -4048, 'Margin type cannot be changed if there exists position.');
    this.marginType.set(symbol, wanted);
  }

  /** [futures] "Change Initial Leverage": 1 … the bracket's maximum, else -4028 "Leverage N is not valid". */
  setLeverage(symbol: string, leverage: number): void {
    const max = this.bracketOf(symbol, ZERO).initialLeverage;
    if (!Number.isInteger(leverage) || leverage < 1 || leverage > max)
      throw new BinanceReject(400, -4028, `Leverage ${leverage} is not valid`);
    this.leverage.set(symbol, leverage);
  }

  spotTrades(symbol: string, orderId?: string): BookTrade[] {
    return this.trades.filter(
      (t) =>
        t.market === 'spot' &&
        t.symbol === symbol &&
        (orderId === undefined || String(t.orderId) === orderId),
    );
  }

  futuresTrades(symbol: string, orderId?: string): BookTrade[] {
    return this.trades.filter(
      (t) =>
        t.market === 'future' &&
        t.symbol === symbol &&
        (orderId === undefined || String(t.orderId) === orderId),
    );
  }

  openOrders(market: MarketKind, symbol?: string): BookOrder[] {
    return this.orders.filter((o) => o.market === market && open(o) && (!symbol || o.symbol === symbol));
  }

  /** Orders that executed under a client order id (tests: exactly one per intent). */
  executedWithId(clientOrderId: string): BookOrder[] {
    return this.orders.filter((o) => o.clientOrderId === clientOrderId && o.executedQty.gt(0));
  }
}

function key(symbol: string, market: MarketKind): string {
  return `${market}:${symbol}`;
}
