import { apiKeys, botCommands, botFills, bots } from '@gridbot/db';
import type { EngineState } from '@gridbot/engine';
import { type BybitFault, FakeBybitServer, type FollowedPair, followPrices } from '@gridbot/exchange/testing';
import { money } from '@gridbot/shared';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertBot, insertSession, insertUserWithKeys } from '../testing/bot-fixtures';
import { crashTestContext } from '../testing/crash-harness';
import { freePort } from '../testing/free-port';

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

describe('SIGKILL of the server while bots trade on the Bybit double', () => {
  it(`executes no order twice, books every executed order once with its fee, and sells out over ${KILLS} kills`, async () => {
    const { db } = t.handle;
    const rand = random(23);
    const fake = await FakeBybitServer.start({ apiKey: 'k', secret: 's' });
    fake.book.spot.set('USDT', { free: money(20_000), locked: money(0) });
    fake.book.transfer('SPOT', 'CONTRACT', 'USDT', '5000');
    const userId = await insertUserWithKeys(db, t.secrets);
    await db.update(apiKeys).set({ exchange: 'bybit' }).where(eq(apiKeys.userId, userId));
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
        // Binance at a closed port: the replayed market may not send a Binance key's orders to Binance itself.
        env: {
          EXCHANGE: 'binance',
          EXCHANGE_REST_URL_BYBIT: fake.url,
          EXCHANGE_REST_URL_BINANCE: 'http://127.0.0.1:9',
        },
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
    // Faults met the server's order calls.
    expect(fake.requests.some((r) => r.path === '/v5/order/create' && r.outcome !== 'answered')).toBe(true);

    const fills = await db.select().from(botFills).where(inArray(botFills.botId, botIds));
    expect(fills.length).toBeGreaterThan(2);
    const executed = fake.book.orders.filter((o) => o.cumExecQty.gt(0));
    // No orderLinkId ever executed twice.
    const ids = executed.map((o) => o.orderLinkId);
    expect(new Set(ids).size).toBe(ids.length);
    // Every executed order is exactly one row of its bot's order book, with its fee (USDT value): the
    // executions' fees, a spot buy's taken in the coin and valued at its price (Bybit's "Spot fee currency
    // instruction"); a linear execution's fee is in the settle coin, USDT.
    // Funding rows are not fills.
    expect(fills).toHaveLength(executed.length);
    for (const order of executed) {
      const booked = fills.filter((f) => f.clientOrderId === order.orderLinkId);
      expect(booked).toHaveLength(1);
      const trades = fake.book.executions.filter(
        (e) => e.orderId === order.orderId && e.execType === 'Trade',
      );
      const fee = trades.reduce(
        (sum, e) =>
          sum.plus(e.feeCurrency === e.symbol.slice(0, -4) ? e.execFee.times(e.execPrice) : e.execFee),
        money(0),
      );
      expect(money(booked[0]!.fee).toFixed(2)).toBe(fee.toFixed(2));
      expect(money(booked[0]!.qty).toFixed(8)).toBe(order.cumExecQty.toFixed(8));
    }
    // After stop with sell the account holds no coin of the bots beyond the spot bot's recorded dust.
    const [spotRow] = await db.select().from(bots).where(eq(bots.id, spotBot));
    const dust = money((spotRow!.engineState as unknown as EngineState).account.dustQty);
    const eth = fake.book.spot.get('ETH');
    expect((eth?.free ?? money(0)).plus(eth?.locked ?? 0).toFixed(8)).toBe(dust.toFixed(8));
    expect(fake.book.positions.get('ETHUSDT')).toBeUndefined();
  }, 600_000);
});
