import { describe, expect, it } from 'vitest';
import { reservedFrom, usdtBalances } from './committed-funds';

// What a new bot may not spend: bots hold 300 USDT in the spot wallet and 120 in the futures wallet.
const committed = { spotUsdt: '300', futuresUsdt: '120', bots: [], coins: {} };

describe('the USDT a new bot finds held by the running ones', () => {
  it('is the held part of the wallet it trades from, on exchanges with a spot and a futures wallet', () => {
    expect(reservedFrom({}, committed, 'spot')).toBe('300');
    expect(reservedFrom({ sharedWallet: false }, committed, 'future')).toBe('120');
  });

  it('is what every bot holds when spot and futures draw on one balance (OKX), whichever market it trades', () => {
    expect(reservedFrom({ sharedWallet: true }, committed, 'spot')).toBe('420');
    expect(reservedFrom({ sharedWallet: true }, committed, 'future')).toBe('420');
  });
});

describe('the USDT of the wallet and dashboard cards', () => {
  it('adds the spot and futures wallets, each less what its bots hold, on exchanges with two wallets', async () => {
    const exchange = { usdtFree: async () => ({ spot: '1000', future: '500' }) };
    expect(await usdtBalances(exchange, committed)).toEqual({ spot: '700', futures: '380', total: '1500' });
  });

  it('counts one balance once when spot and futures draw on it (OKX), less what every bot holds', async () => {
    // OKX's Trading account answers the same 1000 USDT for both wallets.
    const exchange = { sharedWallet: true, usdtFree: async () => ({ spot: '1000', future: '1000' }) };
    expect(await usdtBalances(exchange, committed)).toEqual({ spot: '580', futures: '580', total: '1000' });
  });
});
