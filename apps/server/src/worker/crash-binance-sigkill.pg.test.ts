import { botCommands, botFills, bots } from '@gridbot/db';
import type { EngineState } from '@gridbot/engine';
import {
  FakeBinanceServer,
  type Fault,
  type FollowedPair,
  followPrices,
  TIMEOUT_UNKNOWN,
} from '@gridbot/exchange/testing';
import { money } from '@gridbot/shared';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertBot, insertSession, insertUserWithKeys } from '../testing/bot-fixtures';
import { crashTestContext } from '../testing/crash-harness';
import { freePort } from '../testing/free-port';
import { clientOrderIdOf } from './client-order-id';

// The process-level twin of `crash-binance.pg.test.ts`: the server runs as its own process with
// EXCHANGE=binance against the Binance double over HTTP (BINANCE_REST_URL) and is killed with SIGKILL at
// random moments while a spot and a futures bot trade and the double injects the faults of Binance's docs.
// The double lives in this process and outlives every kill, as Binance outlives a crash of the worker: what
// it executed stays executed, and each restart reconciles its bots' open intents with it
// (docs/trading-rules.md §3). The double's prices follow the server's replayed market (`followPrices`), as
// Binance's would be the server's own feed. PostgreSQL only (`npm run test:pg`), like the other crash tests.
const KILLS = 20;

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
  { kind: 'rateLimit', status: 418, retryAfterSec: 1 },
];
const TARGETS = ['POST /api/v3/order', 'POST /fapi/v1/order', 'GET /api/v3/order', 'GET /fapi/v1/order'];
const PAIRS: FollowedPair[] = [
  { symbol: 'ETHUSDT', market: 'spot' },
  { symbol: 'ETHUSDT', market: 'future' },
];
const t = crashTestContext();

/** Seeded pseudo-random numbers, so a failing run can be replayed. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe('SIGKILL of the server while bots trade on the Binance double', () => {
  it(`executes no order twice, books every executed order once with its fee, and sells out over ${KILLS} kills`, async () => {
    const { db } = t.handle;
    const rand = random(11);
    const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
    fake.book.spot.set('USDT', { free: money(20_000), locked: money(0) });
    fake.book.transfer('MAIN_UMFUTURE', 'USDT', '5000');
    const userId = await insertUserWithKeys(db, t.secrets);
    const token = await insertSession(db, userId);
    const spotBot = await insertBot(db, userId, { symbol: 'ETHUSDT', investment: 1000 });
    const futuresBot = await insertBot(db, userId, {
      symbol: 'ETHUSDT',
      market: 'future',
      leverage: 3,
      investment: 500,
    });
    const botIds = [spotBot, futuresBot];
    const port = await freePort();
    // The server's live price of each pair; while it is down the double keeps its last one.
    const follower = followPrices(fake, PAIRS, async ({ symbol, market }) => {
      const path = market === 'spot' ? '/api/liveprice' : '/api/futureliveprice';
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pair: symbol }),
      });
      if (!res.ok) throw new Error(`${path} ${res.status}`);
      return String(((await res.json()) as { price: string | number }).price);
    });
    // Faults taken in turn, one at a time per endpoint, whether or not a server runs.
    let faultsInjected = 0;
    const faults = setInterval(() => {
      if (rand() < 0.5) return;
      const target = TARGETS[Math.floor(rand() * TARGETS.length)]!;
      if (fake.faultPending(target)) return;
      fake.inject(target, FAULTS[faultsInjected % FAULTS.length]!);
      faultsInjected += 1;
    }, 150);
    try {
      await t.harness.killRepeatedly(port, KILLS, {
        env: { EXCHANGE: 'binance', BINANCE_REST_URL: fake.url },
        runMs: () => 1000 + rand() * 2500,
        // Stop with sell, both bots: queued while no server runs, taken by the last one at its start.
        beforeLast: async () => {
          clearInterval(faults);
          await db
            .insert(botCommands)
            .values(botIds.map((botId) => ({ botId, type: 'stop_sell' as const, payload: {} })));
        },
        settle: async () => {
          const deadline = Date.now() + 60_000;
          while (Date.now() < deadline) {
            const rows = await db.select().from(bots).where(inArray(bots.id, botIds));
            if (rows.every((r) => r.status === 'Stopped')) return;
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        },
      });
    } finally {
      clearInterval(faults);
      await follower.stop();
      await fake.close();
    }
    const rows = await db.select().from(bots).where(inArray(bots.id, botIds));
    expect(rows.map((r) => r.status)).toEqual(['Stopped', 'Stopped']);
    // Every kind of fault met an order or a look-up of the server, the 418 ban among them.
    expect(fake.bannedUntilMs).toBeGreaterThan(0);
    for (const { kind } of FAULTS)
      expect(fake.requests.some((r) => r.path.endsWith('/order') && r.outcome === kind)).toBe(true);

    const fills = await db.select().from(botFills).where(inArray(botFills.botId, botIds));
    expect(fills.length).toBeGreaterThan(2);
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
      const booked = fills.filter((f) => f.clientOrderId === order.clientOrderId);
      expect(booked).toHaveLength(1);
      const trades = fake.book.trades.filter(
        (tr) => tr.orderId === order.orderId && tr.market === order.market,
      );
      const commission = trades.reduce(
        (sum, tr) => sum.plus(tr.commissionAsset === 'USDT' ? tr.commission : tr.commission.times(tr.price)),
        money(0),
      );
      expect(money(booked[0]!.fee).toFixed(2)).toBe(commission.toFixed(2));
      expect(money(booked[0]!.qty).toFixed(8)).toBe(order.executedQty.toFixed(8));
    }
    // After stop with sell the account holds no coin of the bots beyond the spot bot's recorded dust.
    const [spotRow] = await db.select().from(bots).where(eq(bots.id, spotBot));
    const dust = money((spotRow!.engineState as unknown as EngineState).account.dustQty);
    const eth = fake.book.spot.get('ETH');
    expect((eth?.free ?? money(0)).plus(eth?.locked ?? 0).toFixed(8)).toBe(dust.toFixed(8));
    expect(fake.book.positions.get('ETHUSDT')).toBeUndefined();
    // Twenty server start-ups and kills: 215–300 s on a slow two-core host, so the limit leaves room above that.
  }, 600_000);
});
