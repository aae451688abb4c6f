import { botFills, botIntents, bots, createTestDb, type DbHandle } from '@gridbot/db';
import type { EngineState } from '@gridbot/engine';
import { BinanceExchange } from '@gridbot/exchange/binance';
import {
  eventually,
  FakeBinanceServer,
  type Fault,
  ManualFeed,
  TIMEOUT_UNKNOWN,
  virtualBudget,
} from '@gridbot/exchange/testing';

import { money } from '@gridbot/shared';
import { asc, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { binanceClientOf, supervisorOnBinance } from '../testing/binance-client';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { runnerSettled } from '../testing/waits';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
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

/** Every fault of Binance's documentation an order request can meet (see `Fault`). */
const ORDER_FAULTS: Fault[] = [
  { kind: 'executedThenError', status: 503, body: TIMEOUT_UNKNOWN },
  { kind: 'executedThenDrop' },
  { kind: 'resetBefore' },
  {
    kind: 'answer',
    status: 502,
    body: { code: -1001, msg: 'Internal error; unable to process your request.' },
  },
  { kind: 'rateLimit', status: 429, retryAfterSec: 0 },
];

describe('a spot bot on the Binance double that injects every documented fault', () => {
  it('executes each intent once and keeps books equal to the exchange (qty to the step, fees to the cent)', async () => {
    const rand = random(7);
    const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
    fake.setPrice('ETHUSDT', 'spot', '2000');
    const { budget } = virtualBudget();
    const exchange = new BinanceExchange({
      apiKey: 'k',
      secret: 's',
      baseUrl: fake.url,
      enableRateLimit: false,
      retry: { sleep: async () => {}, random: () => 0.5 },
      budget,
      timeoutMs: 10_000,
      // An order whose request went unanswered is known absent once its recvWindow (+ 1 s) has passed.
      recvWindowMs: 500,
    });
    const secrets = SecretBox.fromKey(Buffer.alloc(32, 6));
    const userId = await insertUserWithKeys(handle.db, secrets);
    const botId = await insertBot(handle.db, userId);
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
    // Unknown outcomes are looked up again after tens of milliseconds instead of the runtime's backoff from
    // 0.5 s: the look-ups are the same, the test waits less for them.
    const supervisor = supervisorOnBinance(handle.db, feed, exchange, {
      reconcileDelayMs: (attempts) => 20 * 2 ** Math.min(attempts, 3),
    });
    await supervisor.start();

    // A zig-zag market: every swing of 1.5 % buys a grid or takes a profit; faults hit orders and look-ups.
    const path = Array.from({ length: 50 }, (_, i) => 2000 * (1 + 0.015 * Math.sin(i / 2)));
    for (const price of path) {
      if (rand() < 0.5)
        fake.inject('POST /api/v3/order', ORDER_FAULTS[Math.floor(rand() * ORDER_FAULTS.length)]!);
      if (rand() < 0.2)
        fake.inject('GET /api/v3/order', { kind: 'answer', status: 503, body: TIMEOUT_UNKNOWN });
      fake.setPrice('ETHUSDT', 'spot', price.toFixed(2));
      feed.setPrice('ETHUSDT', 'spot', price.toFixed(2));
      await runnerSettled(supervisor, botId);
      // Each swing is settled (looked up, resent or booked) before the market moves on.
      await eventually(async () => {
        const open = await handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));
        expect(open.filter((i) => i.status === 'pending' || i.status === 'unknown')).toEqual([]);
      }, 60_000);
    }
    await supervisor.stop();
    await fake.close();

    const fills = await handle.db
      .select()
      .from(botFills)
      .where(eq(botFills.botId, botId))
      .orderBy(asc(botFills.seq));
    expect(fills.length).toBeGreaterThan(4);
    expect(fake.requests.filter((r) => r.outcome !== 'answered').length).toBeGreaterThan(5);
    // Exactly one executed order per intent, and each fill is that order.
    const intents = await handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));
    for (const intent of intents)
      expect(fake.book.executedWithId(intent.clientOrderId).length).toBeLessThanOrEqual(1);
    for (const fill of fills) expect(fake.book.executedWithId(fill.clientOrderId)).toHaveLength(1);
    expect(fake.book.orders.every((o) => intents.some((i) => i.clientOrderId === o.clientOrderId))).toBe(
      true,
    );

    // Fees to the cent: each fill's fee (USDT) is the exchange's commission, valued at the fill price.
    for (const fill of fills) {
      const order = fake.book.executedWithId(fill.clientOrderId)[0]!;
      const trades = fake.book.trades.filter((t) => t.orderId === order.orderId);
      const commission = trades.reduce(
        (sum, t) => sum.plus(t.commissionAsset === 'USDT' ? t.commission : t.commission.times(t.price)),
        money(0),
      );
      expect(money(fill.fee).toFixed(2)).toBe(commission.toFixed(2));
      expect(money(fill.qty).toFixed(8)).toBe(order.executedQty.toFixed(8));
    }
    // Quantities to the step: the ETH the account holds is what the bot's open lots and dust say.
    const [row] = await handle.db.select().from(bots).where(eq(bots.id, botId));
    const state = row!.engineState as unknown as EngineState;
    const held = state.kind === 'cycle' ? money(0) : state.lots.reduce((sum, l) => sum.plus(l.qty), money(0));
    const dust = money(state.account.dustQty);
    expect(fake.book.spot.get('ETH')?.free.toFixed(8)).toBe(held.plus(dust).toFixed(8));
    // USDT to the cent: start funds − buys + sells − sell fees (buy fees were paid in ETH).
    const usdt = fills.reduce(
      (sum, f) => (f.side === 'buy' ? sum.minus(f.quote) : sum.plus(f.quote).minus(f.fee)),
      money(10_000),
    );
    expect(fake.book.spot.get('USDT')?.free.toFixed(2)).toBe(usdt.toFixed(2));
    expect(row?.haltReason ?? null).toBeNull();
  }, 240_000);
});

describe('a spot bot in Binance mode', () => {
  it('sizes its orders with the live exchangeInfo filters, not the shared table', async () => {
    const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
    // Binance has moved ETHUSDT's step from 0.0001 to 0.01.
    const table = fake.book.rules('ETHUSDT', 'spot');
    fake.book.ruleOverrides.set('spot:ETHUSDT', { ...table, stepSize: '0.01', minQty: '0.01' });
    fake.setPrice('ETHUSDT', 'spot', '2003');
    const exchange = binanceClientOf(fake);
    const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 9)));
    const botId = await insertBot(handle.db, userId);
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2003' });
    const supervisor = supervisorOnBinance(handle.db, feed, exchange);
    await supervisor.start();
    feed.setPrice('ETHUSDT', 'spot', '2003');
    // Grid 1: 40 % of 1000 at 2003 = 0.19970… ETH, floored to the live step 0.01 (the table's would give 0.1997).
    const intent = await eventually(async () => {
      const [row] = await handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));
      expect(row?.status).toBe('filled');
      return row!;
    }, 20_000);
    expect(intent.payload).toMatchObject({ qty: '0.19' });
    expect(fake.book.executedWithId(intent.clientOrderId)[0]?.executedQty.toFixed()).toBe('0.19');
    await supervisor.stop();
    await fake.close();
  }, 60_000);
});

describe('a running spot bot in Binance mode', () => {
  it('sizes its orders with exchangeInfo rules refreshed while it runs, not the ones of its start', async () => {
    const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
    fake.setPrice('ETHUSDT', 'spot', '2003');
    const exchange = binanceClientOf(fake, {
      // The daily refresh of exchangeInfo, at once.
      marketsTtlMs: 0,
    });
    const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 2)));
    const botId = await insertBot(handle.db, userId);
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2003' });
    const supervisor = supervisorOnBinance(handle.db, feed, exchange);
    const intents = () =>
      handle.db.select().from(botIntents).where(eq(botIntents.botId, botId)).orderBy(asc(botIntents.seq));
    try {
      await supervisor.start();
      feed.setPrice('ETHUSDT', 'spot', '2003');
      // Grid 1 with the step of the start, 0.0001: 400 / 2003 = 0.1997.
      await eventually(async () => expect((await intents())[0]).toMatchObject({ status: 'filled' }), 20_000);
      expect((await intents())[0]?.payload).toMatchObject({ qty: '0.1997' });
      // Binance moves ETHUSDT's step to 0.01; the bot takes the refreshed rules.
      const table = fake.book.rules('ETHUSDT', 'spot');
      fake.book.ruleOverrides.set('spot:ETHUSDT', { ...table, stepSize: '0.01', minQty: '0.01' });
      await supervisor.runner(botId)?.refreshRules();
      // Grid 2 (1 % lower): 300 / 1982.97 = 0.1512…, floored to the new step.
      fake.setPrice('ETHUSDT', 'spot', '1982.97');
      feed.setPrice('ETHUSDT', 'spot', '1982.97');
      await eventually(async () => expect((await intents())[1]).toMatchObject({ status: 'filled' }), 20_000);
      expect((await intents())[1]?.payload).toMatchObject({ qty: '0.15' });
    } finally {
      await supervisor.stop();
      await fake.close();
    }
  }, 60_000);
});

describe('a spot account that pays its fees in BNB', () => {
  it('books each fee as BNB valued at its price, and keeps lots whole', async () => {
    const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
    fake.book.payFeesInBnb = true;
    fake.book.spot.set('BNB', { free: money(1), locked: money(0) });
    fake.setPrice('BNBUSDT', 'spot', '600');
    fake.setPrice('ETHUSDT', 'spot', '2000');
    const exchange = binanceClientOf(fake);
    const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 3)));
    const botId = await insertBot(handle.db, userId);
    // Bots of the tests before this one are still Live in this file's database; here every user's exchange is
    // this one double, which no two users share in production, so they are stopped first.
    await handle.db.update(bots).set({ status: 'Stopped' }).where(ne(bots.id, botId));
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2000', 'spot:BNBUSDT': '600' });
    const supervisor = supervisorOnBinance(handle.db, feed, exchange);
    try {
      await supervisor.start();
      feed.setPrice('ETHUSDT', 'spot', '2000');
      const fillsOf = () =>
        handle.db.select().from(botFills).where(eq(botFills.botId, botId)).orderBy(asc(botFills.seq));
      // Grid 1: 400 USDT buys 0.2 ETH; the fee is 400 × 0.1 % × 0.75 = 0.3 USDT, paid as 0.0005 BNB.
      await eventually(async () => expect(await fillsOf()).toHaveLength(1), 20_000);
      const [buy] = await fillsOf();
      expect(buy).toMatchObject({ feeAsset: 'BNB', qty: '0.2' });
      expect(money(buy!.feePaid!).toFixed()).toBe('0.0005');
      expect(money(buy!.fee).toFixed()).toBe('0.3');
      const [row] = await handle.db.select().from(bots).where(eq(bots.id, botId));
      // The lot holds the whole 0.2 ETH: a BNB fee takes nothing from the coin bought.
      expect((row!.engineState as unknown as EngineState).lots).toMatchObject([{ qty: 0.2, fee: 0.3 }]);
      // Its take-profit sells all of it: 404 USDT, fee 0.303 USDT as 0.000505 BNB.
      fake.setPrice('ETHUSDT', 'spot', '2020');
      feed.setPrice('ETHUSDT', 'spot', '2020');
      // Right after the sale the grid buys its first level again, at once: wait for the sale, stop the bot,
      // then compare every fill with the double's account.
      await eventually(
        async () => expect((await fillsOf()).some((f) => f.side === 'sell')).toBe(true),
        20_000,
      );
      await supervisor.stop();
      const fills = await fillsOf();
      const sell = fills.find((f) => f.side === 'sell');
      expect(sell).toMatchObject({ side: 'sell', feeAsset: 'BNB', qty: '0.2' });
      expect(money(sell!.feePaid!).toFixed()).toBe('0.000505');
      // 404 − 0.303 − 400 − 0.3 = 3.397
      expect(money(sell!.pnl!).toFixed()).toBe('3.397');
      const eth = fills.reduce((s, f) => (f.side === 'buy' ? s.plus(f.qty) : s.minus(f.qty)), money(0));
      const bnb = fills.reduce((s, f) => s.minus(f.feePaid!), money(1));
      expect(fills.every((f) => f.feeAsset === 'BNB')).toBe(true);
      expect(fake.book.spot.get('ETH')?.free.toFixed()).toBe(eth.toFixed());
      expect(fake.book.spot.get('BNB')?.free.toFixed()).toBe(bnb.toFixed());
    } finally {
      await supervisor.stop();
      await fake.close();
    }
  }, 60_000);
});
