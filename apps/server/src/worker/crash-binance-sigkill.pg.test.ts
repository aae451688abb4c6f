import { FakeBinanceServer, type Fault, TIMEOUT_UNKNOWN } from '@gridbot/exchange/testing';
import { money } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { clientOrderIdOf } from '../modules/bots';
import { crashTestContext } from '../testing/crash-harness';
import {
  expectBookedOnce,
  expectOnlyDustLeft,
  killWhileTrading,
  seededRandom,
  spotAndFuturesBots,
} from '../testing/venue-crash';

// The process-level twin of `crash-binance.pg.test.ts`: the server runs as its own process with
// EXCHANGE=binance against the Binance double over HTTP (BINANCE_REST_URL) and is killed with SIGKILL at
// random moments while a spot and a futures bot trade and the double injects the faults of Binance's docs.
// The double lives in this process and outlives every kill, as Binance outlives a crash of the worker: what
// it executed stays executed, and each restart reconciles its bots' open intents with it
// (docs/trading-rules.md §3). The double's prices follow the server's replayed market (`followPrices`), as
// Binance's would be the server's own feed. PostgreSQL only (`npm run test:pg`), like the other crash tests.
const KILLS = 12;

/**
 * Faults an order request or a look-up meets (the double's `Fault`, after Binance's documentation). Each target
 * takes them in turn, so that every kind meets the order placements and look-ups of a short run.
 */
const FAULTS: Fault[] = [
  { kind: 'executedThenError', status: 503, body: TIMEOUT_UNKNOWN },
  { kind: 'executedThenDrop' },
  { kind: 'resetBefore' },
  {
    kind: 'answer',
    status: 502,
    body: { code: -1001, msg: 'Internal error; unable to process your request.' },
  },
  { kind: 'rateLimit', status: 429, retryAfterSec: 0 },
  { kind: 'rateLimit', status: 418, retryAfterSec: 1 },
];
// The order placements twice: the bots place fewer orders than they look up after a fault.
const TARGETS = [
  'POST /api/v3/order',
  'POST /api/v3/order',
  'POST /fapi/v1/order',
  'POST /fapi/v1/order',
  'GET /api/v3/order',
  'GET /fapi/v1/order',
];
const t = crashTestContext();

describe('SIGKILL of the server while bots trade on the Binance double', () => {
  it(`executes no order twice, books every executed order once with its fee, and sells out over at least ${KILLS} kills`, async () => {
    const { db } = t.handle;
    const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
    fake.book.spot.set('USDT', { free: money(20_000), locked: money(0) });
    fake.book.transfer('MAIN_UMFUTURE', 'USDT', '5000');
    const { token, spotBot, botIds } = await spotAndFuturesBots(db, t.secrets);
    await killWhileTrading(t.harness, db, {
      double: fake,
      token,
      botIds,
      kills: KILLS,
      rand: seededRandom(11),
      env: { EXCHANGE: 'binance', BINANCE_REST_URL: fake.url },
      faults: FAULTS,
      targets: TARGETS,
      faultsPerTarget: true,
      // A slow host places fewer orders between two kills: kill again until every fault met one.
      lacking: () =>
        fake.bannedUntilMs === 0 ||
        FAULTS.some(
          ({ kind }) => !fake.requests.some((r) => r.path.endsWith('/order') && r.outcome === kind),
        ),
    });
    // Every kind of fault met an order or a look-up of the server, the 418 ban among them.
    expect(fake.bannedUntilMs).toBeGreaterThan(0);
    for (const { kind } of FAULTS)
      expect(fake.requests.some((r) => r.path.endsWith('/order') && r.outcome === kind)).toBe(true);

    // The bots' client order ids: the bot id packed, a dash, the intent's sequence.
    const prefixes = botIds.map((id) => clientOrderIdOf(id, 1).slice(0, -1));
    const executed = fake.book.orders.filter(
      (o) => prefixes.some((p) => o.clientOrderId.startsWith(p)) && o.executedQty.gt(0),
    );
    // No client order id ever executed twice.
    for (const order of executed) expect(fake.book.executedWithId(order.clientOrderId)).toHaveLength(1);
    // Every executed order is booked once with its fee (USDT value).
    await expectBookedOnce(
      db,
      botIds,
      executed.map((order) => ({
        clientOrderId: order.clientOrderId,
        qty: order.executedQty,
        feeUsdt: fake.book.trades
          .filter((tr) => tr.orderId === order.orderId && tr.market === order.market)
          .reduce(
            (sum, tr) =>
              sum.plus(tr.commissionAsset === 'USDT' ? tr.commission : tr.commission.times(tr.price)),
            money(0),
          ),
      })),
    );
    const eth = fake.book.spot.get('ETH');
    await expectOnlyDustLeft(db, spotBot, (eth?.free ?? money(0)).plus(eth?.locked ?? 0));
    expect(fake.book.positions.get('ETHUSDT')).toBeUndefined();
    // Twelve server start-ups and kills: 110–220 s on a slow two-core host, so the limit leaves room above that.
  }, 600_000);
});
