/**
 * The OKX account behind the fake OKX server: one Trading account in "Spot and futures mode" (acctLv 2)
 * that trades spot for cash and USDT perpetual swaps in isolated margin, with its orders and fills, kept as
 * OKX's API v5 documentation (www.okx.com/docs-v5/en) describes them. Every rule cites its section:
 *   [place-order] "Trade → POST / Place order"; [order-details] "Trade → GET / Order details";
 *   [cancel-order] "Trade → POST / Cancel order"; [orders-pending] "Trade → GET / Order List";
 *   [fills] "Trade → GET / Transaction details (last 3 days)"; [balance] "Trading Account → GET / Balance";
 *   [positions] "Trading Account → GET / Positions"; [positions-history] "Trading Account → GET / Positions
 *   history"; [account-config] "Trading Account → GET / Account configuration"; [set-position-mode]
 *   "Trading Account → POST / Set position mode"; [set-leverage] "Trading Account → POST / Set leverage";
 *   [instruments] "Public Data → GET / Instruments"; [error-code] "Error Code" (REST API 50xxx public, 51xxx
 *   trade, 59xxx account).
 * In this mode spot and swaps draw on the same USDT: there is no separate futures wallet to transfer to.
 * Swaps trade in net mode, isolated: one signed position per swap that goes long or short. Cross margin is
 * not modelled.
 */
import { allMarketRules, type MarketRules, type Money, money } from '@gridbot/shared';

/** A refusal as OKX sends it: `code`/`msg`, or for an order `sCode`/`sMsg` inside `data` under code "1". */
export class OkxReject extends Error {
  constructor(
    readonly code: string,
    readonly msg: string,
    readonly status = 200,
  ) {
    super(`${code} ${msg}`);
  }
}

export type OkxInstType = 'SPOT' | 'SWAP';
export type OkxOrderState = 'live' | 'partially_filled' | 'filled' | 'canceled';
export type OkxPosMode = 'net_mode' | 'long_short_mode';

export interface OkxInstrument {
  instType: OkxInstType;
  instId: string;
  rules: MarketRules;
  tickSz: string;
  lotSz: string;
  minSz: string;
  /** SWAP: base coin per contract ([instruments] ctVal); SPOT: 1 (sizes are in the base coin). */
  ctVal: string;
}

export interface OkxBookOrder {
  inst: OkxInstrument;
  ordId: string;
  clOrdId: string;
  side: 'buy' | 'sell';
  ordType: 'market' | 'limit';
  tdMode: 'cash' | 'isolated';
  posSide: 'net' | 'long' | 'short';
  state: OkxOrderState;
  px: Money;
  /** As sent: contracts on SWAP; base coin on SPOT, or quote coin for a market buy with tgtCcy quote_ccy. */
  sz: Money;
  tgtCcy: '' | 'base_ccy' | 'quote_ccy';
  /** What the order may fill, in `sz` units of base (SPOT) or contracts (SWAP). */
  fillable: Money;
  accFillSz: Money;
  fillValue: Money;
  /** Σ fee of the fills, negative = charged ([fills] fee). */
  fee: Money;
  feeCcy: string;
  reduceOnly: boolean;
  lever: string;
  cTime: number;
  uTime: number;
}

export interface OkxFill {
  inst: OkxInstrument;
  tradeId: string;
  ordId: string;
  clOrdId: string;
  side: 'buy' | 'sell';
  fillPx: Money;
  /** Contracts on SWAP, base coin on SPOT. */
  fillSz: Money;
  fee: Money;
  feeCcy: string;
  execType: 'T' | 'M';
  ts: number;
}

export interface OkxPosition {
  /**
   * Contracts held: [positions] posSide `net` "positive `pos` means long position and negative `pos` means
   * short position".
   */
  pos: Money;
  avgPx: Money;
  /** [positions] margin: "Margin, can be added or reduced. Only applicable to isolated". */
  margin: Money;
  lever: number;
  cTime: number;
}

/** [positions-history] a closed position; type 3 "Liquidation", 4 "Partial liquidation", 5 "ADL". */
export interface OkxClosedPosition {
  instId: string;
  type: '2' | '3' | '4' | '5';
  /** [positions-history] direction: "`long` `short`", the side of the position closed. */
  direction: 'long' | 'short';
  openAvgPx: Money;
  closeAvgPx: Money;
  closeTotalPos: Money;
  realizedPnl: Money;
  fee: Money;
  ordId: string;
  uTime: number;
}

export interface OkxBookOptions {
  now: () => number;
  /** USDT in the Trading account at start (10,000, as the exchange contract expects). */
  usdt?: string;
  /** Fee rates of the account's tier: 0.1 % spot, 0.05 % swap (taker and maker alike here). */
  spotFeeRate?: string;
  swapFeeRate?: string;
}

const ZERO = money(0);
const isOpen = (o: OkxBookOrder) => o.state === 'live' || o.state === 'partially_filled';
const multipleOf = (value: Money, step: string) => money(step).isZero() || value.mod(step).isZero();
/**
 * [place-order] clOrdId: "A combination of case-sensitive alphanumerics, all numbers, or all letters of up
 * to 32 characters."
 */
const CL_ORD_ID = /^[A-Za-z0-9]{1,32}$/;
/** Contract values of the swaps the real venue lists ([instruments] ctVal of BTC-USDT-SWAP, ETH-USDT-SWAP). */
const CT_VAL: Readonly<Record<string, string>> = { BTC: '0.01', ETH: '0.1' };

/** The instruments of the shared table, as OKX lists them: BTC-USDT (SPOT), BTC-USDT-SWAP (SWAP). */
export function okxInstruments(): OkxInstrument[] {
  return allMarketRules().map((rules) => {
    if (rules.market === 'spot')
      return {
        instType: 'SPOT' as const,
        instId: `${rules.base}-USDT`,
        rules,
        tickSz: rules.tickSize,
        lotSz: rules.stepSize,
        minSz: rules.minQty,
        ctVal: '1',
      };
    const ctVal = CT_VAL[rules.base];
    return {
      instType: 'SWAP' as const,
      instId: `${rules.base}-USDT-SWAP`,
      rules,
      tickSz: rules.tickSize,
      // A listed swap's own lot (0.01 contract), else one contract of the table's step.
      lotSz: ctVal ? '0.01' : '1',
      minSz: ctVal ? '0.01' : '1',
      ctVal: ctVal ?? rules.stepSize,
    };
  });
}

export class FakeOkxBook {
  readonly instruments = new Map<string, OkxInstrument>(okxInstruments().map((i) => [i.instId, i]));
  readonly prices = new Map<string, Money>();
  /** [balance] per currency: cash outside isolated margin, and what open orders hold (ordFrozen). */
  readonly cash = new Map<string, Money>();
  readonly ordFrozen = new Map<string, Money>();
  readonly positions = new Map<string, OkxPosition>();
  readonly closedPositions: OkxClosedPosition[] = [];
  /** [set-leverage] isolated leverage per swap; OKX's default is 10 here. */
  readonly leverage = new Map<string, number>();
  /** [account-config] posMode: "long_short_mode" or "net_mode"; the account's, not a symbol's. */
  posMode: OkxPosMode = 'net_mode';
  /** [account-config] perm "read_only, trade, withdraw" and ip ("" when no IP is bound). */
  perm = 'read_only,trade';
  ip = '';
  /** Fills answered without feeCcy (tests: an adapter must not depend on it). */
  fillsWithoutFeeCcy = false;
  readonly orders: OkxBookOrder[] = [];
  readonly fills: OkxFill[] = [];
  private nextId = 1;
  private readonly spotFee: Money;
  private readonly swapFee: Money;

  constructor(private readonly options: OkxBookOptions) {
    this.cash.set('USDT', money(options.usdt ?? '10000'));
    this.spotFee = money(options.spotFeeRate ?? '0.001');
    this.swapFee = money(options.swapFeeRate ?? '0.0005');
    for (const i of this.instruments.values()) this.prices.set(i.instId, money(1));
  }

  /** [error-code] 51001 "Instrument ID does not exist". */
  instrument(instId: string | undefined): OkxInstrument {
    const found = instId ? this.instruments.get(instId) : undefined;
    if (!found) throw new OkxReject('51001', "Instrument ID or Spread ID doesn't exist.");
    return found;
  }

  price(instId: string): Money {
    return this.prices.get(instId) ?? money(1);
  }

  free(ccy: string): Money {
    return (this.cash.get(ccy) ?? ZERO).minus(this.ordFrozen.get(ccy) ?? ZERO);
  }

  private add(map: Map<string, Money>, ccy: string, amount: Money): void {
    map.set(ccy, (map.get(ccy) ?? ZERO).plus(amount));
  }

  /** Moves the market: crossing limit orders fill at their price; an isolated position whose margin is gone is liquidated. */
  setPrice(instId: string, price: string): void {
    const p = money(price);
    this.instrument(instId);
    this.prices.set(instId, p);
    for (const o of this.orders.filter((x) => x.inst.instId === instId && isOpen(x)))
      if (o.side === 'buy' ? p.lte(o.px) : p.gte(o.px)) this.execute(o, o.px, 'M');
    if (instId.endsWith('-SWAP')) this.checkLiquidation(instId);
  }

  /** [place-order] POST /api/v5/trade/order. */
  place(p: Record<string, unknown>): OkxBookOrder {
    // [account-config] perm: a key without "trade" cannot place orders ([error-code] 50120 "API key doesn't
    // have permission").
    if (!this.perm.split(',').includes('trade'))
      throw new OkxReject('50120', "Your API key doesn't have permission to use this endpoint.", 401);
    const inst = this.instrument(str(p.instId));
    const side = p.side === 'buy' || p.side === 'sell' ? p.side : undefined;
    if (!side) throw new OkxReject('51000', 'Parameter side error');
    const ordType = p.ordType === 'market' || p.ordType === 'limit' ? p.ordType : undefined;
    if (!ordType) throw new OkxReject('51000', 'Parameter ordType error');
    // [place-order] tdMode: "Non-margin mode: cash" for SPOT in this account mode, "isolated" (or cross)
    // for SWAP.
    const tdMode = str(p.tdMode);
    if (
      (inst.instType === 'SPOT' && tdMode !== 'cash') ||
      (inst.instType === 'SWAP' && tdMode !== 'isolated')
    )
      throw new OkxReject('51000', 'Parameter tdMode error');
    const clOrdId = str(p.clOrdId);
    if (clOrdId !== '' && !CL_ORD_ID.test(clOrdId)) throw new OkxReject('51000', 'Parameter clOrdId error');
    // [error-code] 51016 "Duplicated clOrdId": the double refuses any id the account has used.
    if (clOrdId !== '' && this.orders.some((o) => o.clOrdId === clOrdId))
      throw new OkxReject('51016', 'Duplicated clOrdId');
    // [place-order] posSide: "Required in long/short mode and only be long or short"; net mode takes "net"
    // or nothing.
    let posSide: OkxBookOrder['posSide'] = 'net';
    if (inst.instType === 'SWAP') {
      const sent = str(p.posSide);
      if (this.posMode === 'long_short_mode') {
        if (sent !== 'long' && sent !== 'short') throw new OkxReject('51000', 'Parameter posSide error');
        posSide = sent;
      } else if (sent !== '' && sent !== 'net') throw new OkxReject('51000', 'Parameter posSide error');
    }
    let px = ZERO;
    if (ordType === 'limit') {
      px = money(str(p.px, '0'));
      // [place-order] px "Order price. Only applicable to limit …"; a price off tickSz is a px error.
      if (!px.isFinite() || px.lte(0) || !multipleOf(px, inst.tickSz))
        throw new OkxReject('51000', 'Parameter px error');
    }
    const sz = money(str(p.sz, '0'));
    if (!sz.isFinite() || sz.lte(0)) throw new OkxReject('51000', 'Parameter sz error');
    // [place-order] tgtCcy: "Whether the target currency uses the quote or base currency … Only applicable
    // to SPOT Market Orders. Default is quote_ccy for buy, base_ccy for sell".
    const tgtSent = str(p.tgtCcy);
    const tgtCcy: OkxBookOrder['tgtCcy'] =
      inst.instType === 'SPOT' && ordType === 'market'
        ? tgtSent === 'base_ccy' || tgtSent === 'quote_ccy'
          ? tgtSent
          : side === 'buy'
            ? 'quote_ccy'
            : 'base_ccy'
        : '';
    const last = this.price(inst.instId);
    const byQuote = tgtCcy === 'quote_ccy';
    const fillable = byQuote ? floorTo(sz.dividedBy(last), inst.lotSz) : sz;
    // [error-code] 51121 "Order quantity must be a multiple of the lot size."; 51020 "Your order should meet
    // or exceed the minimum order amount." (minSz).
    if (!byQuote && !multipleOf(sz, inst.lotSz))
      throw new OkxReject('51121', 'Order quantity must be a multiple of the lot size.');
    if (fillable.lt(inst.minSz))
      throw new OkxReject('51020', 'Your order should meet or exceed the minimum order amount.');
    const reduceOnly = p.reduceOnly === true || p.reduceOnly === 'true';
    const now = this.options.now();
    const order: OkxBookOrder = {
      inst,
      ordId: String(600_000_000_000 + this.nextId++),
      clOrdId,
      side,
      ordType,
      tdMode: tdMode as OkxBookOrder['tdMode'],
      posSide,
      state: 'live',
      px,
      sz,
      tgtCcy,
      fillable,
      accFillSz: ZERO,
      fillValue: ZERO,
      fee: ZERO,
      feeCcy: '',
      reduceOnly,
      lever: inst.instType === 'SWAP' ? String(this.leverageOf(inst.instId)) : '',
      cTime: now,
      uTime: now,
    };
    const price = ordType === 'limit' ? px : last;
    if (inst.instType === 'SPOT') this.admitSpot(order, price, byQuote);
    else this.admitSwap(order, price);
    this.orders.push(order);
    if (ordType === 'market' || (side === 'buy' ? last.lte(px) : last.gte(px)))
      this.execute(order, last, 'T');
    return order;
  }

  /** [error-code] 51008 "Order failed. Insufficient {ccy} balance in account": a limit order holds what it spends. */
  private admitSpot(order: OkxBookOrder, price: Money, byQuote: boolean): void {
    const base = order.inst.rules.base;
    const [ccy, need] =
      order.side === 'buy'
        ? ['USDT', byQuote ? order.sz : order.fillable.times(price)]
        : [base, order.fillable];
    if (this.free(ccy).lt(need))
      throw new OkxReject('51008', `Order failed. Insufficient ${ccy} balance in account.`);
    if (order.ordType === 'limit') this.add(this.ordFrozen, ccy, need);
  }

  /**
   * Net mode ([place-order] posSide "The default is `net` in the `net` mode"): an order against the position
   * reduces it first and opens on its own side with the rest, so a sell with no long opens a short.
   * [place-order] reduceOnly, "Only applicable to … `FUTURES`/`SWAP` orders in `net` mode": "the sum of the
   * current order size and all reverse direction reduce-only pending orders which’s price-time priority is
   * higher than the current order, cannot exceed the contract quantity of position". [error-code] with no
   * position, 51169 "Order failed because you don't have any positions in this direction for this contract
   * to reduce or close."; on the position's own side, 51170 "Failed to place order. A reduce-only order can’t
   * be the same trading direction as your existing positions."; past the position, 51148 "Failed to place
   * order. The new order may execute an opposite trading direction of your existing reduce-only positions.
   * …". What an order opens needs its margin (value / lever) and fee available (51008).
   */
  private admitSwap(order: OkxBookOrder, price: Money): void {
    const pos = this.positions.get(order.inst.instId)?.pos ?? ZERO;
    const against = order.side === 'buy' ? pos.negated() : pos;
    if (order.reduceOnly) {
      if (pos.isZero())
        throw new OkxReject(
          '51169',
          "Order failed because you don't have any positions in this direction for this contract to reduce or close.",
        );
      if (against.lt(0))
        throw new OkxReject(
          '51170',
          'Failed to place order. A reduce-only order can’t be the same trading direction as your existing positions.',
        );
      const ahead = this.orders
        .filter((o) => o.inst === order.inst && isOpen(o) && o.reduceOnly && o.side === order.side)
        .filter((o) => order.ordType === 'limit' && !(order.side === 'buy' ? o.px.lt(price) : o.px.gt(price)))
        .reduce((sum, o) => sum.plus(o.fillable.minus(o.accFillSz)), ZERO);
      if (ahead.plus(order.fillable).gt(against))
        throw new OkxReject(
          '51148',
          'Failed to place order. The new order may execute an opposite trading direction of your existing reduce-only positions. Cancel or edit pending orders to continue order',
        );
      return;
    }
    const opening = order.fillable.minus(against.gt(0) ? against : ZERO);
    if (opening.lte(0)) return;
    const value = opening.times(order.inst.ctVal).times(price);
    const margin = value.dividedBy(this.leverageOf(order.inst.instId));
    if (this.free('USDT').lt(margin.plus(value.times(this.swapFee))))
      throw new OkxReject('51008', 'Order failed. Insufficient USDT margin in account');
  }

  leverageOf(instId: string): number {
    return this.leverage.get(instId) ?? 10;
  }

  /** Fills the rest of an order at `price`: one fill. */
  private execute(order: OkxBookOrder, price: Money, execType: 'T' | 'M'): void {
    const qty = order.fillable.minus(order.accFillSz);
    const inst = order.inst;
    const value = qty.times(inst.ctVal).times(price);
    let fee: Money;
    let feeCcy: string;
    if (inst.instType === 'SPOT') {
      // OKX charges a spot fee in the currency the trade credits: the base on a buy, the quote on a sell.
      const base = inst.rules.base;
      if (order.side === 'buy') {
        fee = qty.times(this.spotFee);
        feeCcy = base;
        if (order.ordType === 'limit') this.add(this.ordFrozen, 'USDT', qty.times(order.px).negated());
        this.add(this.cash, 'USDT', value.negated());
        this.add(this.cash, base, qty.minus(fee));
      } else {
        fee = value.times(this.spotFee);
        feeCcy = 'USDT';
        if (order.ordType === 'limit') this.add(this.ordFrozen, base, qty.negated());
        this.add(this.cash, base, qty.negated());
        this.add(this.cash, 'USDT', value.minus(fee));
      }
    } else {
      fee = value.times(this.swapFee);
      feeCcy = 'USDT';
      this.applySwapFill(order, qty, price);
      this.add(this.cash, 'USDT', fee.negated());
    }
    const now = this.options.now();
    order.accFillSz = order.accFillSz.plus(qty);
    order.fillValue = order.fillValue.plus(value);
    // [fills] fee: "Negative number represents the user transaction fee charged by the platform."
    order.fee = order.fee.minus(fee);
    order.feeCcy = feeCcy;
    order.state = 'filled';
    order.uTime = now;
    this.fills.push({
      inst,
      tradeId: String(this.nextId++),
      ordId: order.ordId,
      clOrdId: order.clOrdId,
      side: order.side,
      fillPx: price,
      fillSz: qty,
      fee: fee.negated(),
      feeCcy,
      execType,
      ts: now,
    });
  }

  /**
   * Isolated net position (pos signed, [positions]). A fill against the position closes it first: it keeps
   * avgPx, releases margin in proportion to the contracts closed and books the PnL, (price − avgPx) × size for
   * a long, (avgPx − price) × size for a short ([positions-history] realizedPnl). What is left opens or adds on
   * the order's side: value / lever moves into the position's margin and avgPx is averaged.
   */
  private applySwapFill(order: OkxBookOrder, qty: Money, price: Money): void {
    const instId = order.inst.instId;
    const ctVal = order.inst.ctVal;
    const position = this.positions.get(instId) ?? {
      pos: ZERO,
      avgPx: ZERO,
      margin: ZERO,
      lever: this.leverageOf(instId),
      cTime: this.options.now(),
    };
    const sign = order.side === 'buy' ? 1 : -1;
    let rest = qty;
    if (!position.pos.isZero() && position.pos.isNegative() !== sign < 0) {
      const size = position.pos.abs();
      const closed = rest.lt(size) ? rest : size;
      const released = position.margin.times(closed).dividedBy(size);
      const pnl = price
        .minus(position.avgPx)
        .times(closed)
        .times(ctVal)
        .times(position.pos.isNegative() ? -1 : 1);
      position.pos = position.pos.plus(closed.times(sign));
      position.margin = position.margin.minus(released);
      this.add(this.cash, 'USDT', released.plus(pnl));
      rest = rest.minus(closed);
      if (position.pos.isZero()) {
        this.positions.delete(instId);
        position.avgPx = ZERO;
        position.margin = ZERO;
      }
    }
    if (rest.lte(0)) return;
    const margin = rest.times(ctVal).times(price).dividedBy(position.lever);
    const size = position.pos.abs();
    position.avgPx = size.times(position.avgPx).plus(rest.times(price)).dividedBy(size.plus(rest));
    position.pos = position.pos.plus(rest.times(sign));
    position.margin = position.margin.plus(margin);
    this.add(this.cash, 'USDT', margin.negated());
    this.positions.set(instId, position);
  }

  /**
   * Where an isolated position's margin is used up at the mark price, less the maintenance margin of the
   * position value (OKX help "Isolated margin liquidation price"): margin + size × (P − entry) × s = size × P ×
   * mmr, s 1 for a long and −1 for a short, so a long's P = (size × entry − margin) / (size × (1 − mmr)) and a
   * short's P = (size × entry + margin) / (size × (1 + mmr)); size in coin, mmr the symbol's lowest tier (the
   * shared table).
   */
  liqPx(instId: string): Money | undefined {
    const position = this.positions.get(instId);
    if (!position) return undefined;
    const inst = this.instrument(instId);
    const size = position.pos.abs().times(inst.ctVal);
    const s = position.pos.isNegative() ? -1 : 1;
    const p = size
      .times(position.avgPx)
      .minus(position.margin.times(s))
      .dividedBy(size.times(1 - s * inst.rules.maintMarginRate));
    return p.lt(0) ? ZERO : p;
  }

  /**
   * A position whose margin the mark price used up (a long at or below its liquidation price, a short at or
   * above it) is closed by OKX at that price, its margin lost ([positions-history] type 3).
   */
  private checkLiquidation(instId: string): void {
    const position = this.positions.get(instId);
    const liq = this.liqPx(instId);
    const mark = this.price(instId);
    if (!position || !liq) return;
    if (position.pos.isNegative() ? mark.lt(liq) : mark.gt(liq)) return;
    this.positions.delete(instId);
    this.closedPositions.push({
      instId,
      type: '3',
      direction: position.pos.isNegative() ? 'short' : 'long',
      openAvgPx: position.avgPx,
      closeAvgPx: mark,
      closeTotalPos: position.pos.abs(),
      realizedPnl: position.margin.negated(),
      fee: ZERO,
      ordId: String(600_000_000_000 + this.nextId++),
      uTime: this.options.now(),
    });
  }

  /** [order-details] "Either ordId or clOrdId is required, if both are passed, ordId will be used." */
  find(instId: string, q: { ordId?: string; clOrdId?: string }): OkxBookOrder | undefined {
    return this.orders.find(
      (o) => o.inst.instId === instId && (q.ordId ? o.ordId === q.ordId : o.clOrdId === q.clOrdId),
    );
  }

  /**
   * [cancel-order] an open order only: else [error-code] 51400 "Order cancellation failed as the order has
   * been filled, canceled or does not exist."
   */
  cancel(instId: string, q: { ordId?: string; clOrdId?: string }): OkxBookOrder {
    const order = this.find(instId, q);
    if (!order || !isOpen(order))
      throw new OkxReject(
        '51400',
        'Order cancellation failed as the order has been filled, canceled or does not exist.',
      );
    if (order.ordType === 'limit' && order.inst.instType === 'SPOT') {
      const rest = order.fillable.minus(order.accFillSz);
      if (order.side === 'buy') this.add(this.ordFrozen, 'USDT', rest.times(order.px).negated());
      else this.add(this.ordFrozen, order.inst.rules.base, rest.negated());
    }
    order.state = 'canceled';
    order.uTime = this.options.now();
    return order;
  }

  /** [orders-pending] open orders, newest first. */
  pending(instType: string | undefined, instId: string | undefined): OkxBookOrder[] {
    return this.orders
      .filter(
        (o) =>
          isOpen(o) && (!instType || o.inst.instType === instType) && (!instId || o.inst.instId === instId),
      )
      .reverse();
  }

  /**
   * [set-position-mode] [error-code] 59000 "Settings failed. Close any open positions or orders before
   * modifying settings."
   */
  setPosMode(mode: string): void {
    if (mode !== 'net_mode' && mode !== 'long_short_mode')
      throw new OkxReject('51000', 'Parameter posMode error');
    if (this.positions.size > 0 || this.orders.some((o) => o.inst.instType === 'SWAP' && isOpen(o)))
      throw new OkxReject(
        '59000',
        'Settings failed. Close any open positions or orders before modifying settings.',
      );
    this.posMode = mode;
  }

  /**
   * [set-leverage] isolated SWAP: "lever" from 1 to the instrument's maximum ([error-code] 59102 "Leverage
   * exceeds the maximum limit for this instrument"); posSide "Required … for isolated margin mode in
   * long/short mode"; 59101 with pending isolated orders.
   */
  setLeverage(p: Record<string, unknown>): {
    lever: string;
    mgnMode: string;
    instId: string;
    posSide: string;
  } {
    const inst = this.instrument(str(p.instId));
    if (inst.instType !== 'SWAP' || str(p.mgnMode) !== 'isolated')
      throw new OkxReject('51000', 'Parameter mgnMode error');
    const lever = Number(str(p.lever));
    if (!Number.isFinite(lever) || lever < 1) throw new OkxReject('51000', 'Parameter lever error');
    if (lever > inst.rules.maxLeverage)
      throw new OkxReject('59102', 'Leverage exceeds the maximum limit for this instrument.');
    const posSide = str(p.posSide);
    if (this.posMode === 'long_short_mode' && posSide !== 'long' && posSide !== 'short')
      throw new OkxReject('51000', 'Parameter posSide error');
    if (this.orders.some((o) => o.inst === inst && isOpen(o)))
      throw new OkxReject(
        '59101',
        'Leverage cannot be adjusted for isolated margin positions with pending orders.',
      );
    const position = this.positions.get(inst.instId);
    if (position) position.lever = lever;
    this.leverage.set(inst.instId, lever);
    return { lever: String(lever), mgnMode: 'isolated', instId: inst.instId, posSide: posSide || 'net' };
  }

  /** Orders that executed under a clOrdId (tests: exactly one per intent). */
  executedWithClOrdId(clOrdId: string): OkxBookOrder[] {
    return this.orders.filter((o) => o.clOrdId === clOrdId && o.accFillSz.gt(0));
  }
}

function str(value: unknown, fallback = ''): string {
  return value === undefined || value === null ? fallback : String(value);
}

function floorTo(value: Money, step: string): Money {
  return money(step).isZero() ? value : value.minus(value.mod(step));
}
