import { botCommands, botFills, bots, createTestDb, type DbHandle } from '@gridbot/db';
import type { EngineState } from '@gridbot/engine';
import {
  eventually,
  FakeBinanceServer,
  type Fault,
  ManualFeed,
  TIMEOUT_UNKNOWN,
} from '@gridbot/exchange/testing';
import { money } from '@gridbot/shared';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { clientOrderIdOf } from '../modules/bots';
import { binanceClientOf, supervisorOnBinance } from '../testing/binance-client';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { type FaultPoint, onFaultPoint } from './fault-points';

// Crashes at the fault points of an order (before and after its intent is written, after the exchange filled
// it and before the bot booked it, after it was booked), at random moments, while a spot and a futures bot
// trade on the Binance double and the double injects the faults of Binance's docs. A crash aborts the bot's
// task where it stands: what it held in memory is lost, and the bot is loaded again from the database and
// reconciles its open intents with the exchange (docs/trading-rules.md §3), as after a SIGKILL of its worker.
// The runner's look-ups of unknown outcomes are shortened (a dependency, `reconcileDelayMs`), so every round
// settles in milliseconds instead of Binance-friendly seconds. PostgreSQL only (`npm run test:pg`), like the
// other crash tests.
const CRASHES = 20;
/**
 * The market's pace. A live feed ticks on its own clock, not when the bots are done: ticks here too arrive
 * while orders are in flight, look-ups back off and crashed bots load again, so this is a pace, not a wait.
 */
const MARKET_STEP_MS = 40;

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  onFaultPoint(() => {});
  await handle.close();
});

/** Seeded pseudo-random numbers, so a failing run can be replayed. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const POINTS: FaultPoint[] = ['intent-write', 'intent-written', 'order-filled', 'fill-booked'];

/** Faults an order request or a look-up meets (the double's `Fault`, after Binance's documentation). */
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
  // Every request of the IP is refused for a second: orders, look-ups, balances and positions.
  { kind: 'rateLimit', status: 418, retryAfterSec: 1 },
];

class Crash extends Error {}

describe('crashes of the worker while bots trade on the Binance double', () => {
  it(`execute no order twice, book every executed order once with its fee, and sell out over ${CRASHES} crashes`, async () => {
    const rand = random(5);
    // Faults on their own stream, taken in turn: how many crash draws a run makes depends on timing.
    const faultRand = random(7);
    let faultsInjected = 0;
    const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
    fake.book.spot.set('USDT', { free: money(20_000), locked: money(0) });
    fake.book.transfer('MAIN_UMFUTURE', 'USDT', '5000');
    fake.setPrice('ETHUSDT', 'spot', '2000');
    fake.setPrice('ETHUSDT', 'future', '2000');
    const exchange = binanceClientOf(fake, {
      // A dropped answer costs the client this long.
      timeoutMs: 1000,
      // An unanswered order is known absent 1.5 s after (recvWindow + 1 s), so a round still settles quickly.
      recvWindowMs: 500,
    });
    const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 1)));
    const spotBot = await insertBot(handle.db, userId, { symbol: 'ETHUSDT', investment: 1000 });
    const futuresBot = await insertBot(handle.db, userId, {
      symbol: 'ETHUSDT',
      market: 'future',
      leverage: 3,
      investment: 500,
    });
    const botIds = [spotBot, futuresBot];
    let crashes = 0;
    let armed = false;
    let lastPrice = '2000';
    let market: NodeJS.Timeout | undefined;
    onFaultPoint((point, detail) => {
      if (!armed || crashes >= CRASHES || !botIds.includes(detail.botId)) return;
      if (point !== POINTS[Math.floor(rand() * POINTS.length)] || rand() < 0.5) return;
      crashes += 1;
      throw new Crash(`crash at ${point}`);
    });
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2000', 'future:ETHUSDT': '2000' });
    const supervisor = supervisorOnBinance(handle.db, feed, exchange, {
      reloadDelayMs: 20,
      // Look-ups of unknown outcomes every 20–160 ms instead of 0.5–30 s: each round settles in time.
      reconcileDelayMs: (attempts) => 10 * 2 ** Math.min(attempts, 4),
    });
    try {
      await supervisor.start();
      armed = true;
      // A zig-zag market: every swing of 1.5 % buys a grid or takes a profit on both bots. It drifts up 0.02 %
      // a step, so a lot bought at a swing's top (a fill that met a fault or a crash lands late) still reaches
      // its 1 % take-profit a few swings later instead of holding the bot's grids, and its orders, for good.
      // Every kind of fault met an order or a look-up, the 418 ban among them.
      const everyFaultMet = () =>
        fake.bannedUntilMs > 0 && FAULTS.every((f) => fake.requests.some((r) => r.outcome === f.kind));
      for (let i = 0; (crashes < CRASHES || i < 200 || !everyFaultMet()) && i < 900; i += 1) {
        const price = (2000 * (1 + 0.015 * Math.sin(i / 2)) * (1 + 0.0002 * i)).toFixed(2);
        lastPrice = price;
        if (i % 4 === 0 && faultRand() < 0.5) {
          const target = [
            'POST /api/v3/order',
            'POST /fapi/v1/order',
            'GET /api/v3/order',
            'GET /fapi/v1/order',
          ][Math.floor(faultRand() * 4)]!;
          // One fault at a time per endpoint: a look-up backing off never meets a queue of them.
          if (!fake.faultPending(target)) {
            fake.inject(target, FAULTS[faultsInjected % FAULTS.length]!);
            faultsInjected += 1;
          }
        }
        fake.setPrice('ETHUSDT', 'spot', price);
        fake.setPrice('ETHUSDT', 'future', price);
        feed.setPrice('ETHUSDT', 'spot', price);
        feed.setPrice('ETHUSDT', 'future', price);
        await new Promise((resolve) => setTimeout(resolve, MARKET_STEP_MS));
      }
      expect(crashes).toBe(CRASHES);
      expect(everyFaultMet()).toBe(true);
      armed = false;
      // The market goes on ticking while the bots sell out: a bot loaded again after a crash sends its sale
      // on its next tick, as with a live feed.
      market = setInterval(() => {
        feed.setPrice('ETHUSDT', 'spot', lastPrice);
        feed.setPrice('ETHUSDT', 'future', lastPrice);
      }, MARKET_STEP_MS);
      // Stop with sell, both bots.
      await handle.db
        .insert(botCommands)
        .values(botIds.map((botId) => ({ botId, type: 'stop_sell' as const, payload: {} })));
      for (const botId of botIds) await supervisor.notify(botId);
      await eventually(async () => {
        const rows = await handle.db.select().from(bots).where(inArray(bots.id, botIds));
        expect(rows.map((r) => r.status)).toEqual(['Stopped', 'Stopped']);
      }, 20_000);
    } finally {
      clearInterval(market);
      armed = false;
      await supervisor.stop();
      await fake.close();
    }

    const fills = await handle.db.select().from(botFills).where(inArray(botFills.botId, botIds));
    expect(fills.length).toBeGreaterThan(6);
    // The bots' client order ids: the bot id packed, a dash, the intent's sequence.
    const prefixes = botIds.map((id) => clientOrderIdOf(id, 1).slice(0, -1));
    const executed = fake.book.orders.filter(
      (o) => prefixes.some((p) => o.clientOrderId.startsWith(p)) && o.executedQty.gt(0),
    );
    // No client order id ever executed twice.
    for (const order of executed) expect(fake.book.executedWithId(order.clientOrderId)).toHaveLength(1);
    // Every executed order is exactly one row of its bot's order book, with its fee (USDT value).
    expect(fills).toHaveLength(executed.length);
    for (const order of executed) {
      const rows = fills.filter((f) => f.clientOrderId === order.clientOrderId);
      expect(rows).toHaveLength(1);
      const trades = fake.book.trades.filter(
        (tr) => tr.orderId === order.orderId && tr.market === order.market,
      );
      const commission = trades.reduce(
        (sum, tr) => sum.plus(tr.commissionAsset === 'USDT' ? tr.commission : tr.commission.times(tr.price)),
        money(0),
      );
      expect(money(rows[0]!.fee).toFixed(2)).toBe(commission.toFixed(2));
      expect(money(rows[0]!.qty).toFixed(8)).toBe(order.executedQty.toFixed(8));
    }
    // After stop with sell the account holds no coin of the bots beyond the spot bot's recorded dust.
    const [spotRow] = await handle.db.select().from(bots).where(eq(bots.id, spotBot));
    const dust = money((spotRow!.engineState as unknown as EngineState).account.dustQty);
    const eth = fake.book.spot.get('ETH');
    expect((eth?.free ?? money(0)).plus(eth?.locked ?? 0).toFixed(8)).toBe(dust.toFixed(8));
    expect(fake.book.positions.get('ETHUSDT')).toBeUndefined();
  }, 90_000);
});
