import { describe, expect, it } from 'vitest';
import { budgetOnVirtualTime } from '../testing/virtual-budget';
import { binanceCosts } from './binance-budget';
import { bybitCosts } from './bybit-budget';

const who = (account: string) => ({ egress: 'nat-1', account });
const create = (category: 'linear' | 'spot') => ({
  api: 'private',
  method: 'POST',
  path: 'v5/order/create',
  params: { category, symbol: 'BTCUSDT' },
});
const tickers = { api: 'public', method: 'GET', path: 'v5/market/tickers', params: { category: 'spot' } };

describe("what a Bybit request costs in the shared budgets (Bybit's documented limits)", () => {
  it("an order: one of the IP's 600 per 5 s (270 spent: half of 90 %) and one of its UID's order/create budget, 10/s on linear (4 spent), 20/s on spot (9)", () => {
    expect(bybitCosts(create('linear'), who('acct-7'))).toEqual([
      { key: 'bybit:ip:nat-1', weight: 1, windows: [{ limit: 270, windowMs: 5_000 }] },
      {
        key: 'bybit:uid:acct-7:POST:order/create:linear',
        weight: 1,
        windows: [{ limit: 4, windowMs: 1_000 }],
      },
    ]);
    expect(bybitCosts(create('spot'), who('acct-7'))[1]).toEqual({
      key: 'bybit:uid:acct-7:POST:order/create:spot',
      weight: 1,
      windows: [{ limit: 9, windowMs: 1_000 }],
    });
  });

  it('the wallet balance by account type (SPOT 20/s, CONTRACT 10/s), a transfer 60 a minute (27 spent), public data on the IP only', () => {
    const read = (accountType: string) =>
      bybitCosts(
        { api: 'private', method: 'GET', path: 'v5/account/wallet-balance', params: { accountType } },
        who('a'),
      )[1];
    expect(read('SPOT')).toMatchObject({
      key: 'bybit:uid:a:GET:account/wallet-balance:SPOT',
      windows: [{ limit: 9 }],
    });
    expect(read('CONTRACT')).toMatchObject({ windows: [{ limit: 4 }] });
    const transfer = { api: 'private', method: 'POST', path: 'v5/asset/transfer/inter-transfer', params: {} };
    expect(bybitCosts(transfer, who('a'))[1]).toMatchObject({ windows: [{ limit: 27, windowMs: 60_000 }] });
    expect(bybitCosts(tickers, who('a')).map((c) => c.key)).toEqual(['bybit:ip:nat-1']);
  });

  it("Bybit's budgets are its own: none of their keys is one of Binance's", () => {
    const bybit = bybitCosts(create('spot'), who('a')).map((c) => c.key);
    const binance = binanceCosts(
      'spot',
      { api: 'private', method: 'POST', path: 'order', params: {} },
      who('a'),
    );
    expect(bybit.some((key) => binance.some((c) => c.key === key))).toBe(false);
  });
});

describe('Bybit requests on a fair budget', () => {
  it("a burst of 20 linear orders from one account goes out 4 a second; another account's 2 orders go out at once", async () => {
    const { time, request, times } = budgetOnVirtualTime();
    const all = [
      ...Array.from({ length: 20 }, () => request('burst', bybitCosts(create('linear'), who('burst')))),
      ...Array.from({ length: 2 }, () => request('calm', bybitCosts(create('linear'), who('calm')))),
    ];
    await time.run();
    await Promise.all(all);
    expect(times('calm')).toEqual([0, 0]);
    // 20 at 4 per second: seconds 0, 1, 2, 3 and 4.
    expect(times('burst')).toEqual([0, 1, 2, 3, 4].flatMap((s) => Array(4).fill(s * 1_000)));
  });

  it('a burst that spends the whole IP budget: the other account gets the second turn, not the last', async () => {
    const { time, request, times } = budgetOnVirtualTime();
    const burst = Array.from({ length: 600 }, () => request('burst', bybitCosts(tickers, who('burst'))));
    const calm = request('calm', bybitCosts(tickers, who('calm')));
    await time.run();
    await Promise.all([...burst, calm]);
    expect(times('calm')).toEqual([0]);
    // 601 requests at 270 per 5 s: 270 in the first window (the calm one among them), 270, then 61.
    const perWindow = [0, 5_000, 10_000].map((at) => times('burst').filter((t) => t === at).length);
    expect(perWindow).toEqual([269, 270, 61]);
  });

  it("a Bybit burst that spends its IP budget leaves Binance's untouched", async () => {
    const { time, request, times } = budgetOnVirtualTime();
    const burst = Array.from({ length: 300 }, () => request('a', bybitCosts(tickers, who('a'))));
    await time.run(0);
    const onBinance = request(
      'b',
      binanceCosts('spot', { api: 'public', method: 'GET', path: 'ticker/price', params: {} }, who('b')),
    );
    await time.run(0);
    await onBinance;
    expect(times('b')).toEqual([0]);
    await time.run();
    await Promise.all(burst);
  });
});
