import { apiKeys } from '@gridbot/db';
import { clientOrderIdOfClOrdId } from '@gridbot/exchange/okx';
import { FakeOkxServer, type OkxFault } from '@gridbot/exchange/testing';
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

// The OKX twin of `crash-bybit-sigkill.pg.test.ts`: a member's key is an OKX key (with its passphrase), the
// server runs as its own process in live mode against OKX's double over HTTP (EXCHANGE_REST_URL_OKX) and is
// killed with SIGKILL at random moments while a spot and a swap bot trade on the one Trading account and the
// double injects the faults OKX's documentation allows (fake-okx-server.ts cites them). The double outlives
// every kill, as OKX outlives a crash of the worker: each restart reconciles its bots' open intents with it
// by clOrdId (docs/trading-rules.md §3). An order whose answer was lost may reach OKX's engine until its
// expTime, 5 s after it was signed ([overview "Transaction Timeouts"]), so a bot waits that long, plus a
// second, before it sends such an order again. The run kills ten times, and more (up to thirty) until the
// order placements met the five faults checked below: a slow host places fewer orders between two kills.
// PostgreSQL only (`npm run test:pg`), like the other crash tests.
const KILLS = 10;
const FAULTS_MET = ['answer', 'executedThenDrop', 'executedThenError', 'lateOrder', 'rateLimited'];

// Each target takes these in turn. The five the test checks come first, so the order placement meets each of
// them once its first five faults have met an order (a short run places few orders): the one refused outright
// first, as the others each leave an order unknown that its bot waits out before it trades again.
const FAULTS: OkxFault[] = [
  // [error-code] 50011 "Rate limit reached", not executed.
  { kind: 'rateLimited' },
  // An order OKX's engine takes after its answer was lost, before its expTime.
  { kind: 'lateOrder', answer: 'error', delayMs: 800 },
  // [error-code] 50004: a timeout "does not mean that the request was successful or failed".
  { kind: 'executedThenError', status: 503 },
  { kind: 'executedThenDrop' },
  { kind: 'answer', status: 502, body: 'Bad Gateway' },
  { kind: 'resetBefore' },
];
// The order placement twice: half the faults meet it, so that each kind does within five short runs.
const TARGETS = [
  'POST /api/v5/trade/order',
  'POST /api/v5/trade/order',
  'GET /api/v5/trade/order',
  'GET /api/v5/trade/fills',
];
const t = crashTestContext();

describe('SIGKILL of the server while bots trade on the OKX double', () => {
  it(`executes no order twice, books every executed order once with its fee, and sells out over at least ${KILLS} kills`, async () => {
    const { db } = t.handle;
    const fake = await FakeOkxServer.start({ apiKey: 'k', secret: 's', passphrase: 'p' });
    // One Trading account backs spot and swaps ([balance]).
    fake.book.cash.set('USDT', money(20_000));
    const { userId, token, spotBot, botIds } = await spotAndFuturesBots(db, t.secrets);
    await db
      .update(apiKeys)
      .set({ exchange: 'okx', passphraseSealed: t.secrets.seal('p') })
      .where(eq(apiKeys.userId, userId));
    const placements = () =>
      fake.requests.filter((r) => r.method === 'POST' && r.path === '/api/v5/trade/order');
    await killWhileTrading(t.harness, db, {
      double: fake,
      token,
      botIds,
      kills: KILLS,
      lacking: () => FAULTS_MET.some((kind) => !placements().some((r) => r.outcome === kind)),
      // One CI run placed no order in thirty runs of the server: a loaded host may take longer than a run.
      started: () => placements().length > 0,
      rand: seededRandom(37),
      // Up to two lost answers in a row (the order, then its look-up) each wait out the order's 6 s window.
      settleMs: 60_000,
      faultsPerTarget: true,
      // Binance at a closed port: the replayed market may not send a Binance key's orders to Binance itself.
      env: {
        EXCHANGE: 'binance',
        EXCHANGE_REST_URL_OKX: fake.url,
        EXCHANGE_REST_URL_BINANCE: 'http://127.0.0.1:9',
      },
      faults: FAULTS,
      targets: TARGETS,
    });
    // OKX's faults met the server's orders: answers lost after execution, orders that appeared late, 50011
    // and a 5xx before execution.
    const posts = placements();
    const met = new Map<string, number>();
    for (const r of posts) met.set(r.outcome, (met.get(r.outcome) ?? 0) + 1);
    console.log(`order placements by outcome: ${JSON.stringify(Object.fromEntries(met))}`);
    expect([...new Set(posts.map((r) => r.outcome))].sort()).toEqual(expect.arrayContaining(FAULTS_MET));

    const executed = fake.book.orders.filter((o) => o.accFillSz.gt(0));
    // No clOrdId ever executed twice.
    for (const order of executed) expect(fake.book.executedWithClOrdId(order.clOrdId)).toHaveLength(1);
    // [fills] fee: negative is charged, in feeCcy: a spot buy's in the coin, valued at its fill price; a spot
    // sell's and a swap's in USDT. A swap's size is in contracts of ctVal ETH each ([instruments]).
    await expectBookedOnce(
      db,
      botIds,
      executed.map((order) => ({
        clientOrderId: clientOrderIdOfClOrdId(order.clOrdId),
        qty: order.accFillSz.times(order.inst.ctVal),
        feeUsdt: fake.book.fills
          .filter((f) => f.ordId === order.ordId)
          .reduce((sum, f) => sum.minus(f.feeCcy === 'USDT' ? f.fee : f.fee.times(f.fillPx)), money(0)),
      })),
    );
    await expectOnlyDustLeft(db, spotBot, fake.book.cash.get('ETH') ?? money(0));
    expect(fake.book.positions.get('ETH-USDT-SWAP')).toBeUndefined();
  }, 600_000);
});
