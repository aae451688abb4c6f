import { describe, expect, it } from 'vitest';
import { reservedFrom } from './committed-funds';

// What a new bot may not spend: bots hold 300 USDT in the spot wallet and 120 in the futures wallet.
const committed = { spotUsdt: '300', futuresUsdt: '120' };

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
