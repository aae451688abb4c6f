import { okx } from 'ccxt';
import { describe, expect, it } from 'vitest';
import { type BudgetCost, FairRequestBudget, MemoryBudgetCounter } from '../budget/request-budget';
import { budgetOnVirtualTime } from '../testing/virtual-budget';
import { VirtualTime } from '../testing/virtual-time';
import { binanceCosts } from './binance-budget';
import { bybitCosts } from './bybit-budget';
import { OKX_ENDPOINTS, okxCosts } from './okx-budget';

const who = (account: string) => ({ egress: 'nat-1', account });
const place = (instId: string) => ({
  api: 'private',
  method: 'POST',
  path: 'trade/order',
  params: { instId, clOrdId: 'x' },
});
const balance = { api: 'private', method: 'GET', path: 'account/balance', params: {} };

describe("what an OKX request costs in the shared budgets (OKX's documented limits)", () => {
  it("an order: one of its User ID's 60 per 2 s for that instrument (27 spent: half of 90 %)", () => {
    expect(okxCosts(place('BTC-USDT'), who('acct-7'))).toEqual([
      {
        key: 'okx:uid:acct-7:POST:trade/order:BTC-USDT',
        weight: 1,
        windows: [{ limit: 27, windowMs: 2_000 }],
      },
    ]);
    expect(okxCosts(place('ETH-USDT-SWAP'), who('acct-7'))[0]?.key).toBe(
      'okx:uid:acct-7:POST:trade/order:ETH-USDT-SWAP',
    );
  });

  it('the balance 10 per 2 s per User ID (4 spent); the ticker 20 per 2 s per IP (9); instruments per IP and type', () => {
    expect(okxCosts(balance, who('a'))).toEqual([
      { key: 'okx:uid:a:GET:account/balance', weight: 1, windows: [{ limit: 4, windowMs: 2_000 }] },
    ]);
    const ticker = { api: 'public', method: 'GET', path: 'market/ticker', params: { instId: 'BTC-USDT' } };
    expect(okxCosts(ticker, who('a'))).toEqual([
      { key: 'okx:ip:nat-1:GET:market/ticker', weight: 1, windows: [{ limit: 9, windowMs: 2_000 }] },
    ]);
    const instruments = {
      api: 'public',
      method: 'GET',
      path: 'public/instruments',
      params: { instType: 'SWAP' },
    };
    expect(okxCosts(instruments, who('a'))[0]?.key).toBe('okx:ip:nat-1:GET:public/instruments:SWAP');
  });

  it("OKX's budgets are its own: none of their keys is Binance's or Bybit's", () => {
    const okx = okxCosts(place('BTC-USDT'), who('a')).map((c) => c.key);
    const others = [
      ...binanceCosts('spot', { api: 'private', method: 'POST', path: 'order', params: {} }, who('a')),
      ...bybitCosts({ api: 'private', method: 'POST', path: 'v5/order/create', params: {} }, who('a')),
    ].map((c) => c.key);
    expect(okx.some((key) => others.includes(key))).toBe(false);
  });
});

describe('OKX requests on a fair budget', () => {
  it("a burst of 12 balance reads from one account goes out 4 per 2 s; another account's read goes out at once", async () => {
    const { time, request, times } = budgetOnVirtualTime();
    const all = [
      ...Array.from({ length: 12 }, () => request('burst', okxCosts(balance, who('burst')))),
      request('calm', okxCosts(balance, who('calm'))),
    ];
    await time.run();
    await Promise.all(all);
    expect(times('calm')).toEqual([0]);
    expect(times('burst')).toEqual([0, 2, 4].flatMap((s) => Array(4).fill(s * 1_000)));
  });

  it("orders on one instrument wait for its budget; the same account's orders on another instrument do not", async () => {
    const { time, request, times } = budgetOnVirtualTime();
    const all = [
      ...Array.from({ length: 30 }, () => request('btc', okxCosts(place('BTC-USDT'), who('a')))),
      request('eth', okxCosts(place('ETH-USDT'), who('a'))),
    ];
    await time.run();
    await Promise.all(all);
    expect(times('eth')).toEqual([0]);
    // 30 at 27 per 2 s.
    expect(times('btc')).toEqual([...Array(27).fill(0), 2_000, 2_000, 2_000]);
  });

  it("a back-off (50011) pauses that account's budget of that endpoint, not another account's", async () => {
    const time = new VirtualTime();
    const budget = new FairRequestBudget(new MemoryBudgetCounter(time), time);
    await budget.backOff(okxCosts(balance, who('a'))[0]?.key as string, 2_000);
    const sent: string[] = [];
    const take = (account: string, costs: BudgetCost[], name: string) =>
      budget.take({ account, costs }).then(() => sent.push(`${name}@${time.now()}`));
    const all = [
      take('a', okxCosts(balance, who('a')), 'a balance'),
      take('b', okxCosts(balance, who('b')), 'b balance'),
    ];
    await time.run();
    await Promise.all(all);
    expect(sent).toEqual(['b balance@0', 'a balance@2000']);
  });
});

describe('the OKX limits beside a second reading of the same documentation', () => {
  // ccxt keeps its own table of OKX's endpoints, each with a cost against a 100 ms base rate (plus 10 %
  // tolerance): cost 1 is 20 requests per 2 s, cost 2 is 10, cost 1/3 is 60. Our figures were read from OKX's
  // pages on their own; where the two readings differ, one of them misread the documentation.
  it('gives every endpoint the bots call the same requests per 2 s as ccxt’s table', () => {
    const api = new okx().api as Record<string, Record<string, Record<string, { cost: number }>>>;
    const costOf = (method: string, path: string) =>
      api.private?.[method]?.[path]?.cost ?? api.public?.[method]?.[path]?.cost;
    for (const [endpoint, { limit }] of Object.entries(OKX_ENDPOINTS)) {
      const [method, path] = endpoint.split(' ') as [string, string];
      const cost = costOf(method.toLowerCase(), path);
      expect(cost, endpoint).toBeDefined();
      expect(Math.round(2_000 / (100 * cost!)), endpoint).toBe(limit);
    }
  });
});
