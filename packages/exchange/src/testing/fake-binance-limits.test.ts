import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeBinanceServer } from './fake-binance-server';

let fake: FakeBinanceServer | undefined;
afterEach(async () => {
  await fake?.close();
});

/** Puts the double's clock 1 s into a fresh window of `windowMs`, so no window edge falls inside a test. */
function startOfWindow(server: FakeBinanceServer, windowMs: number): void {
  const now = Date.now();
  server.clockSkewMs = Math.ceil(now / windowMs) * windowMs + 1_000 - now;
}

async function get(path: string) {
  const res = await fetch(`${fake!.url}${path}`);
  return {
    status: res.status,
    usedWeight: res.headers.get('x-mbx-used-weight-1m'),
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as { code?: number },
  };
}

/** Whether `retryAfter` is the seconds left in the double's current window of `windowMs` (rounded up). */
function secondsLeftInWindow(retryAfter: string | null, windowMs: number): boolean {
  const left = Math.ceil((windowMs - (fake!.now() % windowMs)) / 1000);
  // The answer was made a moment before this check: at most one second more.
  return retryAfter === String(left) || retryAfter === String(left + 1);
}

/** A signed POST /api/v3/order (or /fapi/v1/order) with the double's clock as timestamp. */
async function marketBuy(apiKey: string, secret: string, path = '/api/v3/order', quantity = '0.001') {
  const query = `symbol=BTCUSDT&side=BUY&type=MARKET&quantity=${quantity}&timestamp=${fake!.now()}`;
  const signature = createHmac('sha256', secret).update(query).digest('hex');
  const res = await fetch(`${fake!.url}${path}?${query}&signature=${signature}`, {
    method: 'POST',
    headers: { 'x-mbx-apikey': apiKey },
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as { code?: number },
  };
}

describe('the Binance double counts request weight and orders as Binance documents', () => {
  it('charges each request its weight per IP per minute and answers 429 -1003 with Retry-After past the limit', async () => {
    fake = await FakeBinanceServer.start({ limits: { spotWeight: { limit: 45, windowMs: 60_000 } } });
    startOfWindow(fake, 60_000);
    // exchangeInfo weighs 20: 20, 40, then 60 > 45 is refused with the seconds left in the minute.
    expect(await get('/api/v3/exchangeInfo')).toMatchObject({ status: 200, usedWeight: '20' });
    expect(await get('/api/v3/exchangeInfo')).toMatchObject({ status: 200, usedWeight: '40' });
    const refused = await get('/api/v3/exchangeInfo');
    expect(refused).toMatchObject({ status: 429, body: { code: -1003 } });
    expect(secondsLeftInWindow(refused.retryAfter, 60_000)).toBe(true);
    // The refusal is not charged: a ping (weight 1) still fits, 41.
    expect(await get('/api/v3/time')).toMatchObject({ status: 200, usedWeight: '41' });
    // USDⓈ-M has its own limit: its exchangeInfo weighs 1.
    expect(await get('/fapi/v1/exchangeInfo')).toMatchObject({ status: 200, usedWeight: '1' });
    expect(fake.peak('spotWeight')).toBe(41);
    expect(fake.requests.filter((r) => r.outcome === 'rateLimit')).toHaveLength(1);
  });

  it('counts orders per account: a second key still trades when the first is over its limit (429 -1015)', async () => {
    fake = await FakeBinanceServer.start({
      apiKey: 'k1',
      secret: 's1',
      limits: { spotOrders: { limit: 2, windowMs: 10_000 } },
    });
    fake.addKey('k2', 's2');
    fake.setPrice('BTCUSDT', 'spot', '50000');
    startOfWindow(fake, 10_000);
    expect((await marketBuy('k1', 's1')).status).toBe(200);
    expect((await marketBuy('k1', 's1')).status).toBe(200);
    const refused = await marketBuy('k1', 's1');
    expect(refused).toMatchObject({ status: 429, body: { code: -1015 } });
    expect(secondsLeftInWindow(refused.retryAfter, 10_000)).toBe(true);
    expect((await marketBuy('k2', 's2')).status).toBe(200);
    expect(fake.peak('spotOrders')).toBe(2);
  });

  it('counts futures orders per account in 10 seconds too: the 10-second limit refuses before the minute one', async () => {
    fake = await FakeBinanceServer.start({
      apiKey: 'k1',
      secret: 's1',
      limits: { usdmOrders: { limit: 5, windowMs: 60_000 }, usdmOrdersShort: { limit: 2, windowMs: 10_000 } },
    });
    fake.setPrice('BTCUSDT', 'future', '50000');
    fake.book.transfer('MAIN_UMFUTURE', 'USDT', '10000');
    startOfWindow(fake, 60_000);
    const buy = () => marketBuy('k1', 's1', '/fapi/v1/order', '0.01');
    expect((await buy()).status).toBe(200);
    expect((await buy()).status).toBe(200);
    const refused = await buy();
    expect(refused).toMatchObject({ status: 429, body: { code: -1015 } });
    expect(secondsLeftInWindow(refused.retryAfter, 10_000)).toBe(true);
    // The refused order counted in neither window.
    expect([fake.peak('usdmOrdersShort'), fake.peak('usdmOrders')]).toEqual([2, 2]);
  });
});
