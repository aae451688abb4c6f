/**
 * OKX API v5 response rows as www.okx.com/docs-v5/en documents them (section names as in fake-okx-book.ts),
 * built from the fake's book. Used by the loopback fake OKX server only. Every number is a string, as OKX
 * sends them.
 */
import type { FakeOkxBook, OkxBookOrder, OkxFill, OkxInstrument } from './fake-okx-book';

/** [instruments] a row of GET /api/v5/public/instruments. */
export function instrumentRow(i: OkxInstrument) {
  const swap = i.instType === 'SWAP';
  return {
    instType: i.instType,
    instId: i.instId,
    uly: swap ? `${i.rules.base}-USDT` : '',
    instFamily: swap ? `${i.rules.base}-USDT` : '',
    baseCcy: swap ? '' : i.rules.base,
    quoteCcy: swap ? '' : 'USDT',
    settleCcy: swap ? 'USDT' : '',
    ctVal: swap ? i.ctVal : '',
    ctMult: swap ? '1' : '',
    ctValCcy: swap ? i.rules.base : '',
    ctType: swap ? 'linear' : '',
    optType: '',
    stk: '',
    listTime: '1606468572000',
    expTime: '',
    lever: swap ? String(i.rules.maxLeverage) : '10',
    tickSz: i.tickSz,
    lotSz: i.lotSz,
    minSz: i.minSz,
    maxLmtSz: '10000000',
    maxMktSz: swap ? '5000' : '1000000',
    alias: '',
    state: 'live',
    category: '1',
  };
}

/** [tickers] "GET / Ticker": last price (and, on a swap, nothing more the adapter reads). */
export function tickerRow(book: FakeOkxBook, instId: string) {
  const last = book.price(instId).toFixed();
  return {
    instType: instId.endsWith('-SWAP') ? 'SWAP' : 'SPOT',
    instId,
    last,
    lastSz: '0.1',
    askPx: last,
    askSz: '1',
    bidPx: last,
    bidSz: '1',
    open24h: last,
    high24h: last,
    low24h: last,
    volCcy24h: '0',
    vol24h: '0',
    sodUtc0: last,
    sodUtc8: last,
    ts: String(Date.now()),
  };
}

/**
 * [order-details] / [orders-pending] an order. A market buy of tgtCcy quote_ccy keeps its `sz` in USDT;
 * `avgPx` and `fillPx` are "" until something filled; `fee` is negative when charged.
 */
export function orderRow(o: OkxBookOrder) {
  const filled = !o.accFillSz.isZero();
  const avg = filled ? o.fillValue.dividedBy(o.accFillSz.times(o.inst.ctVal)).toFixed() : '';
  return {
    instType: o.inst.instType,
    instId: o.inst.instId,
    ccy: '',
    ordId: o.ordId,
    clOrdId: o.clOrdId,
    tag: '',
    px: o.ordType === 'limit' ? o.px.toFixed() : '',
    sz: o.sz.toFixed(),
    pnl: '0',
    ordType: o.ordType,
    side: o.side,
    posSide: o.posSide,
    tdMode: o.tdMode,
    accFillSz: o.accFillSz.toFixed(),
    fillPx: filled ? avg : '',
    tradeId: '',
    fillSz: filled ? o.accFillSz.toFixed() : '0',
    fillTime: filled ? String(o.uTime) : '',
    avgPx: avg,
    state: o.state,
    lever: o.lever,
    tgtCcy: o.tgtCcy,
    feeCcy: o.feeCcy,
    fee: o.fee.toFixed(),
    rebateCcy: o.feeCcy,
    rebate: '0',
    category: 'normal',
    reduceOnly: String(o.reduceOnly),
    cancelSource: '',
    uTime: String(o.uTime),
    cTime: String(o.cTime),
  };
}

/** [fills] a row of GET /api/v5/trade/fills: fillSz in contracts on a swap; fee negative when charged. */
export function fillRow(f: OkxFill, withFeeCcy: boolean) {
  return {
    instType: f.inst.instType,
    instId: f.inst.instId,
    tradeId: f.tradeId,
    ordId: f.ordId,
    clOrdId: f.clOrdId,
    billId: `b${f.tradeId}`,
    tag: '',
    fillPx: f.fillPx.toFixed(),
    fillSz: f.fillSz.toFixed(),
    side: f.side,
    posSide: f.inst.instType === 'SWAP' ? 'net' : '',
    execType: f.execType,
    ...(withFeeCcy ? { feeCcy: f.feeCcy } : {}),
    fee: f.fee.toFixed(),
    ts: String(f.ts),
    fillTime: String(f.ts),
  };
}

/**
 * [balance] GET /api/v5/account/balance: one row with `details` per currency: cashBal (isolated margin
 * included), availBal, frozenBal ("Frozen balance of currency": open orders and isolated margin), ordFrozen.
 */
export function balanceRow(book: FakeOkxBook, ccys: readonly string[] | undefined, now: number) {
  const margin = [...book.positions.values()].reduce((s, p) => s.plus(p.margin), book.free('USDT').times(0));
  const all = ccys ?? [...book.cash.keys()];
  const details = all
    .filter((ccy) => book.cash.has(ccy))
    .map((ccy) => {
      const iso = ccy === 'USDT' ? margin : margin.times(0);
      const cash = (book.cash.get(ccy) ?? margin.times(0)).plus(iso);
      const ordFrozen = book.ordFrozen.get(ccy) ?? margin.times(0);
      return {
        ccy,
        eq: cash.toFixed(),
        cashBal: cash.toFixed(),
        availBal: book.free(ccy).toFixed(),
        availEq: book.free(ccy).toFixed(),
        frozenBal: ordFrozen.plus(iso).toFixed(),
        ordFrozen: ordFrozen.toFixed(),
        isoEq: iso.toFixed(),
        upl: '0',
        uTime: String(now),
      };
    });
  return { totalEq: '0', adjEq: '', uTime: String(now), details };
}

/**
 * [positions] a row of GET /api/v5/account/positions: a net position of `pos` contracts in isolated margin, posSide
 * `net` ("positive `pos` means long position and negative `pos` means short position").
 */
export function positionRow(book: FakeOkxBook, instId: string, now: number) {
  const p = book.positions.get(instId);
  if (!p) return undefined;
  const inst = book.instrument(instId);
  const mark = book.price(instId);
  const size = p.pos.abs().times(inst.ctVal);
  return {
    instType: 'SWAP',
    instId,
    mgnMode: 'isolated',
    posId: `p-${instId}`,
    posSide: 'net',
    pos: p.pos.toFixed(),
    availPos: p.pos.abs().toFixed(),
    posCcy: '',
    ccy: 'USDT',
    avgPx: p.avgPx.toFixed(),
    markPx: mark.toFixed(),
    upl: mark.minus(p.avgPx).times(p.pos).times(inst.ctVal).toFixed(),
    lever: String(p.lever),
    liqPx: book.liqPx(instId)?.toDecimalPlaces(2).toFixed() ?? '',
    margin: p.margin.toFixed(),
    imr: '',
    mmr: size.times(mark).times(inst.rules.maintMarginRate).toFixed(),
    notionalUsd: size.times(mark).toFixed(),
    cTime: String(p.cTime),
    uTime: String(now),
  };
}

/** [account-config] GET /api/v5/account/config. */
export function configRow(book: FakeOkxBook) {
  return {
    uid: '44705892343619584',
    mainUid: '44705892343619584',
    acctLv: '2',
    posMode: book.posMode,
    autoLoan: false,
    greeksType: 'PA',
    level: 'Lv1',
    levelTmp: '',
    ctIsoMode: 'automatic',
    mgnIsoMode: 'automatic',
    label: 'gridbot',
    roleType: '0',
    spotRoleType: '0',
    opAuth: '0',
    kycLv: '2',
    perm: book.perm,
    ip: book.ip,
  };
}
