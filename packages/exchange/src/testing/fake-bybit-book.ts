/**
 * The classic Bybit account behind the fake Bybit server: a Spot wallet, a Contract (USDT perpetual) wallet
 * with isolated one-way positions (long or short), orders and executions, kept as Bybit's V5 documentation describes them.
 * Every rule cites the page of bybit-exchange/docs (docs/v5/…) it follows:
 *   [create-order] order/create-order.mdx "Place Order"; [open-order] order/open-order.mdx "Get Open & Closed
 *   Orders"; [order-list] order/order-list.mdx "Get Order History"; [cancel-order] order/cancel-order.mdx;
 *   [execution] order/execution.mdx "Get Trade History"; [position] position/position.mdx "Get Position Info";
 *   [leverage] position/leverage.mdx "Set Leverage"; [cross-isolate] position/cross-isolate.mdx "Switch
 *   Cross/Isolated Margin"; [position-mode] position/position-mode.mdx "Switch Position Mode";
 *   [wallet-balance] account/wallet-balance.mdx; [inter-transfer] asset/transfer/create-inter-transfer.mdx;
 *   [error] error.mdx "Error Code" (and the spot 170xxx codes of the same page).
 * The account is a classic one (Spot and Contract wallets apart, moved between by inter-transfer): the only
 * Bybit account kind whose wallets are the port's spot and futures wallets.
 */
import {
  allMarketRules,
  findMarketRules,
  type MarketKind,
  type MarketRules,
  type Money,
  money,
} from '@gridbot/shared';

/** A refusal as Bybit sends it: `retCode` and `retMsg` (HTTP 200 unless `status` says otherwise). */
export class BybitReject extends Error {
  constructor(
    readonly retCode: number,
    readonly retMsg: string,
    readonly status = 200,
  ) {
    super(`${retCode} ${retMsg}`);
  }
}

export type BybitCategory = 'spot' | 'linear';
export type BybitOrderStatus = 'New' | 'PartiallyFilled' | 'Filled' | 'Cancelled' | 'Rejected';

export interface BybitBookOrder {
  category: BybitCategory;
  symbol: string;
  orderId: string;
  orderLinkId: string;
  side: 'Buy' | 'Sell';
  orderType: 'Market' | 'Limit';
  orderStatus: BybitOrderStatus;
  price: Money;
  /** As sent: a classic spot market buy's qty is its value in USDT ([create-order] `qty`). */
  qty: Money;
  /** Base quantity the order may fill. */
  baseQty: Money;
  cumExecQty: Money;
  cumExecValue: Money;
  cumExecFee: Money;
  reduceOnly: boolean;
  positionIdx: number;
  lastPriceOnCreated: Money;
  createdTime: number;
  updatedTime: number;
}

/** [execution] a row of GET /v5/execution/list; `execType` Funding rows are not fills. */
export interface BybitExecution {
  category: BybitCategory;
  symbol: string;
  execId: string;
  orderId: string;
  orderLinkId: string;
  side: 'Buy' | 'Sell';
  execType: 'Trade' | 'Funding' | 'BustTrade' | 'AdlTrade';
  execPrice: Money;
  execQty: Money;
  execValue: Money;
  execFee: Money;
  /** Spot: the coin the fee was charged in; linear: "" ([execution] response example). */
  feeCurrency: string;
  feeRate: Money;
  isMaker: boolean;
  closedSize: Money;
  /** Realised PnL of a closing fill (closed-pnl), kept for the liquidation figures. */
  pnl: Money;
  execTime: number;
}

export interface BybitPosition {
  /** [position] side "`Buy`: long, `Sell`: short" (one-way mode: one position per symbol, positionIdx 0). */
  side: 'Buy' | 'Sell';
  /** [position] size: "Position size, always positive". */
  size: Money;
  avgPrice: Money;
  /** [position] positionBalance: the isolated margin of the position. */
  positionBalance: Money;
}

export interface BybitBookOptions {
  now: () => number;
  /** Spot USDT at start (10,000, as the exchange contract expects). */
  spotUsdt?: string;
  /** Fee rates of the account's tier ([account] "Get Fee Rate"): 0.1 % spot, 0.05 % linear by default. */
  spotFeeRate?: string;
  linearFeeRate?: string;
}

const ZERO = money(0);
const isOpen = (o: BybitBookOrder) => o.orderStatus === 'New' || o.orderStatus === 'PartiallyFilled';
const multipleOf = (value: Money, step: string) => money(step).isZero() || value.mod(step).isZero();
/** [create-order] orderLinkId: "A max of 36 characters. Combinations of numbers, letters (upper and lower cases), dashes, and underscores". */
const LINK_ID = /^[A-Za-z0-9_-]{1,36}$/;
/** [create-order] "Open orders up limit": 500 active orders per symbol (perps), 500 in total (spot). */
export const BYBIT_MAX_OPEN_ORDERS = 500;

export class FakeBybitBook {
  readonly prices = new Map<string, Money>();
  readonly spot = new Map<string, { free: Money; locked: Money }>();
  /** Contract wallet cash outside the positions' isolated margin. */
  contractCash = ZERO;
  readonly positions = new Map<string, BybitPosition>();
  readonly leverage = new Map<string, number>();
  /** [cross-isolate] tradeMode per symbol: 0 cross (the default), 1 isolated. */
  readonly tradeMode = new Map<string, 0 | 1>();
  /**
   * A Unified Trading Account instead of a classic one: [wallet-balance] accountType "UTA2.0: UNIFIED …
   * Classic account: CONTRACT, SPOT", so the classic wallets are refused.
   */
  unified = false;
  /** [position-mode] symbols switched to "Both Sides" (mode 3); the system default is one-way. */
  readonly hedgeMode = new Set<string>();
  /**
   * The key as GET /v5/user/query-api reports it ([user] "Get API Key Information"): a read-and-write key
   * with spot and contract trading and account transfers, no IP bound.
   */
  apiKeyInfo: { readOnly: 0 | 1; permissions: Record<string, string[]>; ips: string[] } = {
    readOnly: 0,
    permissions: {
      ContractTrade: ['Order', 'Position'],
      Spot: ['SpotTrade'],
      Wallet: ['AccountTransfer'],
      Options: [],
      Derivatives: [],
      CopyTrading: [],
      BlockTrade: [],
      Exchange: [],
      NFT: [],
    },
    ips: ['*'],
  };
  readonly orders: BybitBookOrder[] = [];
  readonly executions: BybitExecution[] = [];
  private nextId = 1;
  private readonly spotFee: Money;
  private readonly linearFee: Money;

  constructor(private readonly options: BybitBookOptions) {
    this.spot.set('USDT', { free: money(options.spotUsdt ?? '10000'), locked: ZERO });
    this.spotFee = money(options.spotFeeRate ?? '0.001');
    this.linearFee = money(options.linearFeeRate ?? '0.0005');
    for (const r of allMarketRules()) this.prices.set(key(r.symbol, r.market), money(1));
  }

  rules(symbol: string | undefined, category: BybitCategory): MarketRules {
    const rules = symbol ? findMarketRules(symbol, marketOf(category)) : undefined;
    // [error] 10001 "Request parameter error." (Bybit answers "params error: symbol invalid").
    if (!rules) throw new BybitReject(10001, 'params error: symbol invalid');
    return rules;
  }

  price(symbol: string, category: BybitCategory): Money {
    return this.prices.get(key(symbol, marketOf(category))) ?? money(1);
  }

  /** Moves the market: resting limit orders that cross fill; an isolated position whose margin is gone is liquidated. */
  setPrice(symbol: string, market: MarketKind, price: string): void {
    const p = money(price);
    const category: BybitCategory = market === 'spot' ? 'spot' : 'linear';
    this.prices.set(key(symbol, market), p);
    for (const o of this.orders.filter((x) => x.category === category && x.symbol === symbol && isOpen(x))) {
      if (o.side === 'Buy' ? p.lte(o.price) : p.gte(o.price)) this.execute(o, o.price, true);
    }
    if (category === 'linear') this.checkLiquidation(symbol);
  }

  balance(coin: string) {
    let row = this.spot.get(coin);
    if (!row) {
      row = { free: ZERO, locked: ZERO };
      this.spot.set(coin, row);
    }
    return row;
  }

  /** [create-order] POST /v5/order/create. */
  create(p: Record<string, unknown>): BybitBookOrder {
    const category = p.category === 'spot' || p.category === 'linear' ? p.category : undefined;
    if (!category) throw new BybitReject(10001, 'params error: category invalid');
    // [error] 10005 "Permission denied, please check your API key permissions." for a key without the right.
    const right = category === 'spot' ? ['Spot', 'SpotTrade'] : ['ContractTrade', 'Order'];
    if (this.apiKeyInfo.readOnly === 1 || !this.apiKeyInfo.permissions[right[0]!]?.includes(right[1]!))
      throw new BybitReject(10005, 'Permission denied, please check your API key permissions.');
    const rules = this.rules(str(p.symbol), category);
    const side = p.side === 'Buy' || p.side === 'Sell' ? p.side : undefined;
    const orderType = p.orderType === 'Market' || p.orderType === 'Limit' ? p.orderType : undefined;
    if (!side || !orderType) throw new BybitReject(10001, 'params error: side or orderType invalid');
    const orderLinkId = p.orderLinkId === undefined ? `auto-${this.nextId}` : str(p.orderLinkId);
    if (!LINK_ID.test(orderLinkId)) throw new BybitReject(10001, 'params error: orderLinkId invalid');
    // [create-order] orderLinkId "should be no longer than 36 characters and should be unique" ("always
    // unique"): a used one is refused whatever became of its order. [error] 110072 "OrderLinkedID is
    // duplicate" (linear), 170141 "Duplicate clientOrderId" (spot).
    if (this.orders.some((o) => o.category === category && o.orderLinkId === orderLinkId))
      throw category === 'spot'
        ? new BybitReject(170141, 'Duplicate clientOrderId')
        : new BybitReject(110072, 'OrderLinkedID is duplicate');
    const positionIdx = Number(p.positionIdx ?? 0);
    // [create-order] positionIdx "Under hedge-mode, this param is required": 0 is one-way only
    // ([error] 10001, Bybit's words "position idx not match position mode").
    if (category === 'linear' && this.hedgeMode.has(rules.symbol) === (positionIdx === 0))
      throw new BybitReject(10001, 'position idx not match position mode');
    const last = this.price(rules.symbol, category);
    let price = ZERO;
    if (orderType === 'Limit') {
      if (p.price === undefined) throw new BybitReject(10001, 'params error: price is required');
      price = money(str(p.price));
      // [create-order] price: "check the min price and price precision from instrument info" (tickSize).
      if (!multipleOf(price, rules.tickSize) || price.lte(0))
        throw category === 'spot'
          ? new BybitReject(170134, 'Order price decimal too long.')
          : new BybitReject(10001, 'params error: price invalid');
    }
    const qty = money(str(p.qty, '0'));
    if (!qty.isFinite() || qty.lte(0)) throw new BybitReject(10001, 'params error: qty invalid');
    // [create-order] qty, classic account spot: "Market Buy order by value by default".
    const byValue = category === 'spot' && orderType === 'Market' && side === 'Buy';
    const baseQty = byValue ? floorTo(qty.dividedBy(last), rules.stepSize) : qty;
    const reduceOnly = category === 'linear' && (p.reduceOnly === true || p.reduceOnly === 'true');
    this.checkSize(
      category,
      rules,
      byValue ? qty : baseQty,
      baseQty,
      orderType === 'Limit' ? price : last,
      reduceOnly,
    );
    if (this.orders.filter((o) => o.symbol === rules.symbol && isOpen(o)).length >= BYBIT_MAX_OPEN_ORDERS)
      throw new BybitReject(110020, 'Cannot have more than 500 active orders.');
    const now = this.options.now();
    const order: BybitBookOrder = {
      category,
      symbol: rules.symbol,
      orderId: `${now}-${this.nextId++}`,
      orderLinkId,
      side,
      orderType,
      orderStatus: 'New',
      price,
      qty,
      baseQty,
      cumExecQty: ZERO,
      cumExecValue: ZERO,
      cumExecFee: ZERO,
      reduceOnly,
      positionIdx,
      lastPriceOnCreated: last,
      createdTime: now,
      updatedTime: now,
    };
    if (category === 'spot') this.admitSpot(order, rules, orderType === 'Limit' ? price : last);
    else this.admitLinear(order, orderType === 'Limit' ? price : last);
    this.orders.push(order);
    if (orderType === 'Market' || (side === 'Buy' ? last.lte(price) : last.gte(price)))
      this.execute(order, last, false);
    return order;
  }

  /**
   * Instrument limits ([instrument] lotSizeFilter): spot 170136 "Order quantity lower than the minimum.",
   * 170137 "Order volume decimal too long", 170140 "Transaction amount lower than the minimum."; linear
   * 10001 for a qty off qtyStep or below minOrderQty, 110094 below minNotionalValue unless reduce-only.
   */
  private checkSize(
    category: BybitCategory,
    rules: MarketRules,
    sent: Money,
    base: Money,
    price: Money,
    reduceOnly: boolean,
  ): void {
    if (category === 'spot') {
      if (!multipleOf(base, rules.stepSize) || sent.lte(0))
        throw new BybitReject(170137, 'Order volume decimal too long');
      if (base.lt(rules.minQty)) throw new BybitReject(170136, 'Order quantity lower than the minimum.');
      if (base.times(price).lt(rules.minNotional))
        throw new BybitReject(170140, 'Transaction amount lower than the minimum.');
      return;
    }
    if (!multipleOf(base, rules.stepSize) || base.lt(rules.minQty))
      throw new BybitReject(10001, 'params error: The number of contracts exceeds minimum limit allowed');
    if (!reduceOnly && base.times(price).lt(rules.minNotional))
      throw new BybitReject(110094, 'Order does not meet minimum order value');
  }

  /** [error] 170131 "Balance insufficient": a spot order needs what it spends free; a limit order locks it. */
  private admitSpot(order: BybitBookOrder, rules: MarketRules, price: Money): void {
    const insufficient = () => new BybitReject(170131, 'Insufficient balance.');
    if (order.side === 'Buy') {
      const usdt = this.balance('USDT');
      const cost = order.orderType === 'Market' ? order.qty : order.baseQty.times(price);
      if (usdt.free.lt(cost)) throw insufficient();
      if (order.orderType === 'Limit') {
        usdt.free = usdt.free.minus(cost);
        usdt.locked = usdt.locked.plus(cost);
      }
      return;
    }
    const base = this.balance(rules.base);
    if (base.free.lt(order.baseQty)) throw insufficient();
    if (order.orderType === 'Limit') {
      base.free = base.free.minus(order.baseQty);
      base.locked = base.locked.plus(order.baseQty);
    }
  }

  /**
   * One-way mode (positionIdx 0): an order on the side opposite the position reduces it first, and what is
   * left opens (or adds to) a position on the order's own side: a Sell with no long opens a short.
   * [create-order] reduceOnly "`true` means your position can only reduce in size": a reduce-only order
   * needs a position on the other side (a Sell a long, a Buy a short). With none, its quantity would be cut
   * to nothing: [error] 110017 "orderQty will be truncated to zero" (the page named the code "Reduce-only
   * rule not satisfied" until its 2025 revision). The double also refuses one larger than that position with
   * the same code, where Bybit would cut it to the position: the platform never sends more than it holds.
   * What an order opens needs its initial margin (value / leverage) and fee available, else 110007
   * "Insufficient available balance".
   */
  private admitLinear(order: BybitBookOrder, price: Money): void {
    const position = this.positions.get(order.symbol);
    const reducible = position && position.side !== order.side ? position.size : ZERO;
    if (order.reduceOnly) {
      if (reducible.lt(order.baseQty)) throw new BybitReject(110017, 'orderQty will be truncated to zero');
      return;
    }
    const opening = order.baseQty.minus(reducible);
    if (opening.lte(0)) return;
    const value = opening.times(price);
    const margin = value.dividedBy(this.leverageOf(order.symbol));
    if (this.contractCash.lt(margin.plus(value.times(this.linearFee))))
      throw new BybitReject(110007, 'Insufficient available balance');
  }

  leverageOf(symbol: string): number {
    return this.leverage.get(symbol) ?? 10;
  }

  /** Fills the rest of an order at `price`: one execution. */
  private execute(order: BybitBookOrder, price: Money, maker: boolean): void {
    const qty = order.baseQty.minus(order.cumExecQty);
    const value = qty.times(price);
    const rules = this.rules(order.symbol, order.category);
    let fee: Money;
    let feeCurrency = '';
    let pnl = ZERO;
    let fill = { closed: ZERO, pnl: ZERO };
    if (order.category === 'spot') {
      // [enum] "Spot fee currency instruction": a buy pays its fee in the coin received (the base), a sell
      // in the quote.
      const base = this.balance(rules.base);
      const usdt = this.balance('USDT');
      if (order.side === 'Buy') {
        fee = qty.times(this.spotFee);
        feeCurrency = rules.base;
        if (order.orderType === 'Limit') {
          usdt.locked = usdt.locked.minus(qty.times(order.price));
          usdt.free = usdt.free.plus(qty.times(order.price)).minus(value);
        } else usdt.free = usdt.free.minus(value);
        base.free = base.free.plus(qty).minus(fee);
      } else {
        fee = value.times(this.spotFee);
        feeCurrency = 'USDT';
        if (order.orderType === 'Limit') base.locked = base.locked.minus(qty);
        else base.free = base.free.minus(qty);
        usdt.free = usdt.free.plus(value).minus(fee);
      }
    } else {
      fee = value.times(this.linearFee);
      fill = this.applyLinearFill(order, qty, price);
      pnl = fill.pnl;
      this.contractCash = this.contractCash.minus(fee);
    }
    const now = this.options.now();
    order.cumExecQty = order.cumExecQty.plus(qty);
    order.cumExecValue = order.cumExecValue.plus(value);
    order.cumExecFee = order.cumExecFee.plus(fee);
    order.orderStatus = 'Filled';
    order.updatedTime = now;
    this.executions.push({
      category: order.category,
      symbol: order.symbol,
      execId: `e-${this.nextId++}`,
      orderId: order.orderId,
      orderLinkId: order.orderLinkId,
      side: order.side,
      execType: 'Trade',
      execPrice: price,
      execQty: qty,
      execValue: value,
      execFee: fee,
      feeCurrency,
      feeRate: order.category === 'spot' ? this.spotFee : this.linearFee,
      isMaker: maker,
      closedSize: fill.closed,
      pnl,
      execTime: now,
    });
  }

  /**
   * Isolated one-way position ([position] side Buy / Sell, size always positive). A fill against the position
   * closes it first: it keeps the entry, releases margin in proportion to the size closed and books the PnL,
   * (price − entry) × qty for a long, (entry − price) × qty for a short ([close-pnl] closedPnl). What is left of
   * the fill opens or adds on the order's own side: value / leverage moves into the position and the entry is
   * averaged.
   */
  private applyLinearFill(order: BybitBookOrder, qty: Money, price: Money): { closed: Money; pnl: Money } {
    let position = this.positions.get(order.symbol);
    let closed = ZERO;
    let pnl = ZERO;
    if (position && position.side !== order.side) {
      closed = qty.lt(position.size) ? qty : position.size;
      const released = position.positionBalance.times(closed).dividedBy(position.size);
      pnl = price
        .minus(position.avgPrice)
        .times(closed)
        .times(position.side === 'Sell' ? -1 : 1);
      position.size = position.size.minus(closed);
      position.positionBalance = position.positionBalance.minus(released);
      this.contractCash = this.contractCash.plus(released).plus(pnl);
      if (position.size.isZero()) {
        this.positions.delete(order.symbol);
        position = undefined;
      }
    }
    const rest = qty.minus(closed);
    if (rest.gt(0)) {
      const held = position ?? { side: order.side, size: ZERO, avgPrice: ZERO, positionBalance: ZERO };
      const margin = rest.times(price).dividedBy(this.leverageOf(order.symbol));
      const size = held.size.plus(rest);
      held.avgPrice = held.size.times(held.avgPrice).plus(rest.times(price)).dividedBy(size);
      held.size = size;
      held.positionBalance = held.positionBalance.plus(margin);
      this.contractCash = this.contractCash.minus(margin);
      this.positions.set(order.symbol, held);
    }
    return { closed, pnl };
  }

  /**
   * The price at which an isolated position's margin is used up at the mark price: margin + size × (P −
   * entry) × s = size × P × mmr, s 1 for a long and −1 for a short (maintenance margin of the position value
   * at the mark price, Bybit help "Liquidation Price (USDT Contract)"), so a long's P = (size × entry −
   * margin) / (size × (1 − mmr)) and a short's P = (size × entry + margin) / (size × (1 + mmr)); mmr is the
   * symbol's lowest risk-limit tier (the shared table).
   */
  liqPrice(symbol: string): Money | undefined {
    const position = this.positions.get(symbol);
    if (!position) return undefined;
    const mmr = this.rules(symbol, 'linear').maintMarginRate;
    const s = position.side === 'Buy' ? 1 : -1;
    const p = position.size
      .times(position.avgPrice)
      .minus(position.positionBalance.times(s))
      .dividedBy(position.size.times(1 - s * mmr));
    return p.lt(0) ? ZERO : p;
  }

  /**
   * A position whose margin the mark price has used up (a long at or below its liquidation price, a short at
   * or above it) is taken over at that price by an order on the other side; its margin is lost (BustTrade).
   */
  private checkLiquidation(symbol: string): void {
    const position = this.positions.get(symbol);
    const liq = this.liqPrice(symbol);
    const mark = this.price(symbol, 'linear');
    if (!position || !liq) return;
    if (position.side === 'Buy' ? mark.gt(liq) : mark.lt(liq)) return;
    const side = position.side === 'Buy' ? 'Sell' : 'Buy';
    const now = this.options.now();
    const order: BybitBookOrder = {
      category: 'linear',
      symbol,
      orderId: `${now}-${this.nextId++}`,
      orderLinkId: '',
      side,
      orderType: 'Market',
      orderStatus: 'Filled',
      price: ZERO,
      qty: position.size,
      baseQty: position.size,
      cumExecQty: position.size,
      cumExecValue: position.size.times(mark),
      cumExecFee: ZERO,
      reduceOnly: true,
      positionIdx: 0,
      lastPriceOnCreated: mark,
      createdTime: now,
      updatedTime: now,
    };
    this.orders.push(order);
    this.executions.push({
      category: 'linear',
      symbol,
      execId: `e-${this.nextId++}`,
      orderId: order.orderId,
      orderLinkId: '',
      side,
      // [enum] execType BustTrade: "Takeover liquidation".
      execType: 'BustTrade',
      execPrice: mark,
      execQty: position.size,
      execValue: order.cumExecValue,
      execFee: ZERO,
      feeCurrency: '',
      feeRate: ZERO,
      isMaker: false,
      closedSize: position.size,
      pnl: position.positionBalance.negated(),
      execTime: now,
    });
    this.positions.delete(symbol);
  }

  /**
   * A funding settlement of the position: [execution] rows of execType `Funding` (an [enum] execType) carry the
   * funding fee in `execFee` (positive paid) and are not fills: no order, no quantity traded. A positive rate
   * has longs pay shorts (Bybit help "Introduction to Funding Rate"), so a short receives it.
   */
  settleFunding(symbol: string, rate: string): void {
    const position = this.positions.get(symbol);
    if (!position) return;
    const mark = this.price(symbol, 'linear');
    const fee = position.size
      .times(mark)
      .times(rate)
      .times(position.side === 'Buy' ? 1 : -1);
    this.contractCash = this.contractCash.minus(fee);
    this.executions.push({
      category: 'linear',
      symbol,
      execId: `f-${this.nextId++}`,
      orderId: '',
      orderLinkId: '',
      side: position.side,
      execType: 'Funding',
      execPrice: mark,
      execQty: position.size,
      execValue: position.size.times(mark),
      execFee: fee,
      feeCurrency: '',
      feeRate: money(rate),
      isMaker: false,
      closedSize: ZERO,
      pnl: ZERO,
      execTime: this.options.now(),
    });
  }

  /**
   * [open-order] GET /v5/order/realtime: by orderId or orderLinkId any recent order ("openOnly param will be
   * ignored when query by orderId or orderLinkId"), except that "Classic account spot can return open orders
   * only"; otherwise the open orders.
   */
  realtime(
    category: BybitCategory,
    q: { symbol?: string; orderId?: string; orderLinkId?: string },
  ): BybitBookOrder[] {
    const byId = q.orderId !== undefined || q.orderLinkId !== undefined;
    return this.matching(category, q)
      .filter((o) => (byId && category === 'linear') || isOpen(o))
      .reverse();
  }

  /** [order-list] GET /v5/order/history: the account's orders, newest first. */
  history(
    category: BybitCategory,
    q: { symbol?: string; orderId?: string; orderLinkId?: string },
  ): BybitBookOrder[] {
    return this.matching(category, q).reverse();
  }

  private matching(category: BybitCategory, q: { symbol?: string; orderId?: string; orderLinkId?: string }) {
    // "orderId > orderLinkId > symbol": the id parameters win over the symbol.
    return this.orders.filter(
      (o) =>
        o.category === category &&
        (q.orderId
          ? o.orderId === q.orderId
          : q.orderLinkId
            ? o.orderLinkId === q.orderLinkId
            : !q.symbol || o.symbol === q.symbol),
    );
  }

  /** [cancel-order] only an open order: else [error] 110001 "Order does not exist" / spot 170213 "Order does not exist.". */
  cancel(
    category: BybitCategory,
    symbol: string,
    q: { orderId?: string; orderLinkId?: string },
  ): BybitBookOrder {
    const order = this.matching(category, q).find((o) => o.symbol === symbol && isOpen(o));
    if (!order)
      throw category === 'spot'
        ? new BybitReject(170213, 'Order does not exist.')
        : new BybitReject(110001, 'Order does not exist');
    if (category === 'spot') {
      const rules = this.rules(symbol, 'spot');
      const rest = order.baseQty.minus(order.cumExecQty);
      const row = order.side === 'Buy' ? this.balance('USDT') : this.balance(rules.base);
      const held = order.side === 'Buy' ? rest.times(order.price) : rest;
      row.locked = row.locked.minus(held);
      row.free = row.free.plus(held);
    }
    order.orderStatus = 'Cancelled';
    order.updatedTime = this.options.now();
    return order;
  }

  /** [execution] rows by orderId, else orderLinkId, else symbol; newest first. */
  executionList(
    category: BybitCategory,
    q: { symbol?: string; orderId?: string; orderLinkId?: string; execType?: string; startTime?: number },
  ): BybitExecution[] {
    return this.executions
      .filter(
        (e) =>
          e.category === category &&
          (q.orderId
            ? e.orderId === q.orderId
            : q.orderLinkId
              ? e.orderLinkId === q.orderLinkId
              : !q.symbol || e.symbol === q.symbol) &&
          (!q.execType || e.execType === q.execType) &&
          (q.startTime === undefined || e.execTime >= q.startTime),
      )
      .reverse();
  }

  /** [inter-transfer] SPOT ↔ CONTRACT USDT; [error] 131212 "Insufficient balance". */
  transfer(from: string, to: string, coin: string, amount: string): void {
    const value = money(amount);
    if (coin !== 'USDT' || !value.isFinite() || value.lte(0))
      throw new BybitReject(10001, 'params error: amount invalid');
    const usdt = this.balance('USDT');
    if (from === 'SPOT' && to === 'CONTRACT') {
      if (usdt.free.lt(value)) throw new BybitReject(131212, 'Insufficient balance');
      usdt.free = usdt.free.minus(value);
      this.contractCash = this.contractCash.plus(value);
    } else if (from === 'CONTRACT' && to === 'SPOT') {
      if (this.contractCash.lt(value)) throw new BybitReject(131212, 'Insufficient balance');
      this.contractCash = this.contractCash.minus(value);
      usdt.free = usdt.free.plus(value);
    } else throw new BybitReject(10001, 'params error: accountType invalid');
  }

  /** [leverage] 1 … the instrument's maxLeverage; [error] 110043 "Set leverage not modified" when unchanged. */
  setLeverage(symbol: string, buy: string, sell: string): void {
    const rules = this.rules(symbol, 'linear');
    const lev = Number(buy);
    if (buy !== sell || !Number.isFinite(lev) || lev < 1 || lev > rules.maxLeverage)
      throw new BybitReject(10001, 'params error: leverage invalid');
    if (this.leverageOf(symbol) === lev) throw new BybitReject(110043, 'Set leverage not modified');
    this.leverage.set(symbol, lev);
  }

  /** [cross-isolate] tradeMode 0/1 with the leverage; [error] 110026 "Cross/isolated margin mode is not modified". */
  switchIsolated(symbol: string, tradeMode: number, buy: string, sell: string): void {
    this.rules(symbol, 'linear');
    if (tradeMode !== 0 && tradeMode !== 1) throw new BybitReject(10001, 'params error: tradeMode invalid');
    if ((this.tradeMode.get(symbol) ?? 0) === tradeMode)
      throw new BybitReject(110026, 'Cross/isolated margin mode is not modified');
    if (this.positions.has(symbol)) throw new BybitReject(110005, 'position status');
    this.tradeMode.set(symbol, tradeMode);
    if (buy === sell && Number(buy) >= 1) this.leverage.set(symbol, Number(buy));
  }

  /**
   * [position-mode] mode 0 "Merged Single" (one-way), 3 "Both Sides": [error] 110025 "Position mode is not
   * modified", 110024 with a position, 110028 with open orders.
   */
  switchMode(symbol: string, mode: number): void {
    this.rules(symbol, 'linear');
    const hedge = mode === 3;
    if (mode !== 0 && !hedge) throw new BybitReject(10001, 'params error: mode invalid');
    if (this.hedgeMode.has(symbol) === hedge) throw new BybitReject(110025, 'Position mode is not modified');
    if (this.positions.has(symbol))
      throw new BybitReject(110024, 'You have an existing position, so position mode cannot be switched');
    if (this.orders.some((o) => o.symbol === symbol && o.category === 'linear' && isOpen(o)))
      throw new BybitReject(110028, 'Open orders exist, so you cannot change position mode');
    if (hedge) this.hedgeMode.add(symbol);
    else this.hedgeMode.delete(symbol);
  }

  /** Orders that executed under an orderLinkId (tests: exactly one per intent). */
  executedWithLinkId(orderLinkId: string): BybitBookOrder[] {
    return this.orders.filter((o) => o.orderLinkId === orderLinkId && o.cumExecQty.gt(0));
  }
}

function key(symbol: string, market: MarketKind): string {
  return `${market}:${symbol}`;
}

function marketOf(category: BybitCategory): MarketKind {
  return category === 'spot' ? 'spot' : 'future';
}

function str(value: unknown, fallback = ''): string {
  return value === undefined || value === null ? fallback : String(value);
}

function floorTo(value: Money, step: string): Money {
  return money(step).isZero() ? value : value.minus(value.mod(step));
}
