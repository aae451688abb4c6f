import { apiKeys } from '@gridbot/db';
import { type BybitFault, FakeBybitServer } from '@gridbot/exchange/testing';
import { money } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { crashTestContext } from '../testing/crash-harness';
import {
  expectBookedOnce,
  expectOnlyDustLeft,
  killWhileTrading,
  seededRandom,
  spotAndFuturesBots,
} from '../testing/venue-crash';

// The Bybit twin of `crash-binance-sigkill.pg.test.ts`: a member's key is a Bybit key, the server runs as its
// own process in live mode against Bybit's double over HTTP (EXCHANGE_REST_URL_BYBIT) and is killed with
// SIGKILL at random moments while a spot and a futures bot trade and the double injects the faults Bybit's
// documentation allows (fake-bybit-server.ts cites them). The double outlives every kill, as Bybit outlives a
// crash of the worker: each restart reconciles its bots' open intents with it by orderLinkId
// (docs/trading-rules.md §3). PostgreSQL only (`npm run test:pg`), like the other crash tests.
// Fewer kills than Binance's twin: its 20 cover the runtime's recovery; these cover Bybit's adapter under it
// (263 s for 8 on a two-core host busy with other work).
const KILLS = 8;

const FAULTS: BybitFault[] = [
  { kind: 'executedThenError', status: 503 },
  { kind: 'executedThenDrop' },
  { kind: 'resetBefore' },
  { kind: 'answer', status: 502, body: 'Bad Gateway' },
  { kind: 'rateLimited', resetInMs: 500 },
  // An order the engine takes after the answer was lost, within its recv_window ([guide]).
  { kind: 'lateOrder', answer: 'error', delayMs: 800 },
];
const TARGETS = ['POST /v5/order/create', 'GET /v5/order/realtime', 'GET /v5/order/history'];
const t = crashTestContext();

describe('SIGKILL of the server while bots trade on the Bybit double', () => {
  it(`executes no order twice, books every executed order once with its fee, and sells out over ${KILLS} kills`, async () => {
    const { db } = t.handle;
    const fake = await FakeBybitServer.start({ apiKey: 'k', secret: 's' });
    fake.book.spot.set('USDT', { free: money(20_000), locked: money(0) });
    fake.book.transfer('SPOT', 'CONTRACT', 'USDT', '5000');
    const { userId, token, spotBot, botIds } = await spotAndFuturesBots(db, t.secrets);
    await db.update(apiKeys).set({ exchange: 'bybit' }).where(eq(apiKeys.userId, userId));
    await killWhileTrading(t.harness, db, {
      double: fake,
      token,
      botIds,
      kills: KILLS,
      rand: seededRandom(23),
      // Binance at a closed port: the replayed market may not send a Binance key's orders to Binance itself.
      env: {
        EXCHANGE: 'binance',
        EXCHANGE_REST_URL_BYBIT: fake.url,
        EXCHANGE_REST_URL_BINANCE: 'http://127.0.0.1:9',
      },
      faults: FAULTS,
      targets: TARGETS,
    });
    // Faults met the server's order calls.
    expect(fake.requests.some((r) => r.path === '/v5/order/create' && r.outcome !== 'answered')).toBe(true);

    const executed = fake.book.orders.filter((o) => o.cumExecQty.gt(0));
    // No orderLinkId ever executed twice.
    const ids = executed.map((o) => o.orderLinkId);
    expect(new Set(ids).size).toBe(ids.length);
    // The executions' fees, a spot buy's taken in the coin and valued at its price (Bybit's "Spot fee currency
    // instruction"); a linear execution's fee is in the settle coin, USDT.
    await expectBookedOnce(
      db,
      botIds,
      executed.map((order) => ({
        clientOrderId: order.orderLinkId,
        qty: order.cumExecQty,
        feeUsdt: fake.book.executions
          .filter((e) => e.orderId === order.orderId && e.execType === 'Trade')
          .reduce(
            (sum, e) =>
              sum.plus(e.feeCurrency === e.symbol.slice(0, -4) ? e.execFee.times(e.execPrice) : e.execFee),
            money(0),
          ),
      })),
    );
    const eth = fake.book.spot.get('ETH');
    await expectOnlyDustLeft(db, spotBot, (eth?.free ?? money(0)).plus(eth?.locked ?? 0));
    expect(fake.book.positions.get('ETHUSDT')).toBeUndefined();
  }, 600_000);
});
