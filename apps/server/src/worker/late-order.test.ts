import { botFills, botIntents, createTestDb, type DbHandle } from '@gridbot/db';
import {
  type Fault as BinanceFault,
  eventually,
  FakeBinanceServer,
  ManualFeed,
} from '@gridbot/exchange/testing';
import { type MarketKind, money } from '@gridbot/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { clientOrderIdOf } from '../modules/bots';
import { binanceClientOf, supervisorOnBinance } from '../testing/binance-client';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { quietFor } from '../testing/waits';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

/** recvWindow of the adapter's signed requests: shortened from Binance's 5 s so the test takes seconds. */
const RECV_WINDOW_MS = 1500;
/** The unanswered order reaches the double's matching engine this long after it was sent. */
const LATE_BY_MS = 1200;

/**
 * A bot's first order meets the double's `lateOrder` fault: no answer (a -1007, or the answer lost), "Order
 * does not exist." (-2013) to the look-ups that follow, and then, within the request's recvWindow, the order
 * executes. The runtime looks it up with its usual short backoff, so today's look-ups see -2013 many times
 * before the order appears.
 */
function botMeetingALateOrder(market: MarketKind, answer: 'timeout' | 'drop') {
  return botMeetingAFault(market, { kind: 'lateOrder', answer, delayMs: LATE_BY_MS });
}

/** A bot on the Binance double whose first order placement meets `fault`. */
async function botMeetingAFault(market: MarketKind, fault: BinanceFault) {
  const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
  fake.setPrice('ETHUSDT', market, '2000');
  fake.book.spot.set('USDT', { free: money(5000), locked: money(0) });
  if (market === 'future') fake.book.transfer('MAIN_UMFUTURE', 'USDT', '2000');
  const exchange = binanceClientOf(fake, { recvWindowMs: RECV_WINDOW_MS, timeoutMs: 1000 });
  const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 9)));
  const botId = await insertBot(handle.db, userId, {
    symbol: 'ETHUSDT',
    market,
    investment: 500,
    ...(market === 'future' ? { leverage: 3 } : {}),
  });
  const path = market === 'spot' ? 'POST /api/v3/order' : 'POST /fapi/v1/order';
  fake.inject(path, fault);
  const feed = new ManualFeed({ [`${market}:ETHUSDT`]: '2000' });
  const supervisor = workerOn(feed, exchange);
  await supervisor.start();
  feed.setPrice('ETHUSDT', market, '2000');
  return { fake, feed, exchange, supervisor, botId, cid: clientOrderIdOf(botId, 1), path };
}

/** A worker on the Binance double that asks again about an unknown order after a short backoff. */
function workerOn(feed: ManualFeed, exchange: ReturnType<typeof binanceClientOf>) {
  return supervisorOnBinance(handle.db, feed, exchange, {
    reconcileDelayMs: (attempts) => 20 * 2 ** Math.min(attempts, 3),
  });
}

async function firstIntent(botId: string) {
  const [intent] = await handle.db
    .select()
    .from(botIntents)
    .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, 1)));
  return intent;
}

describe('an order that reaches Binance after its request went unanswered', { timeout: 60_000 }, () => {
  for (const [market, answer] of [
    ['spot', 'timeout'],
    ['future', 'drop'],
  ] as const) {
    it(`is never sent a second time for one intent (${market}, ${answer === 'timeout' ? '-1007' : 'answer lost'})`, async () => {
      const { fake, supervisor, botId, cid, path } = await botMeetingALateOrder(market, answer);
      try {
        await eventually(
          async () => expect((await firstIntent(botId))?.status).not.toMatch(/pending|unknown/),
          20_000,
        );
        // The fault met the order: it reached the double only after the runtime had asked about it.
        expect(fake.requests.some((r) => r.outcome === 'lateOrder')).toBe(true);
        // Past the request's recvWindow nothing more can arrive: the books are final.
        await quietFor(RECV_WINDOW_MS);
        const posts = fake.requests.filter(
          (r) => `${r.method} ${r.path}` === path && r.params.newClientOrderId === cid,
        );
        expect(posts).toHaveLength(1);
        expect(fake.book.executedWithId(cid)).toHaveLength(1);
        const fills = await handle.db
          .select()
          .from(botFills)
          .where(and(eq(botFills.botId, botId), eq(botFills.seq, 1)));
        expect(fills).toHaveLength(1);
        expect(money(fills[0]!.qty).toFixed()).toBe(fake.book.executedWithId(cid)[0]!.executedQty.toFixed());
      } finally {
        await supervisor.stop();
        await fake.close();
      }
    });
  }

  it('is never sent a second time by a worker that loads the bot before the order arrives', async () => {
    const { fake, feed, exchange, supervisor, botId, cid, path } = await botMeetingALateOrder(
      'spot',
      'timeout',
    );
    let next: ReturnType<typeof supervisorOnBinance> | undefined;
    try {
      // The worker stops while the outcome is unknown; another loads the bot at once and finds the intent.
      await eventually(async () => expect((await firstIntent(botId))?.status).toBe('unknown'), 20_000);
      await supervisor.stop();
      expect(fake.book.executedWithId(cid)).toEqual([]);
      next = workerOn(feed, exchange);
      await next.start();
      await eventually(
        async () => expect((await firstIntent(botId))?.status).not.toMatch(/pending|unknown/),
        20_000,
      );
      await quietFor(RECV_WINDOW_MS);
      const posts = fake.requests.filter(
        (r) => `${r.method} ${r.path}` === path && r.params.newClientOrderId === cid,
      );
      expect(posts).toHaveLength(1);
      expect(fake.book.executedWithId(cid)).toHaveLength(1);
      const fills = await handle.db
        .select()
        .from(botFills)
        .where(and(eq(botFills.botId, botId), eq(botFills.seq, 1)));
      expect(fills).toHaveLength(1);
    } finally {
      await next?.stop();
      await fake.close();
    }
  });

  it('is sent again once its window has passed, however often its worker is stopped before then', async () => {
    // The placement is reset before it reaches the matching engine: no order, and nothing said so.
    const { fake, feed, exchange, supervisor, botId, cid, path } = await botMeetingAFault('spot', {
      kind: 'resetBefore',
    });
    const window = exchange.lateOrderWindowMs;
    try {
      await eventually(async () => expect((await firstIntent(botId))?.status).toBe('unknown'), 20_000);
      await supervisor.stop();
      // As a worker killed while the call was under way leaves the row: written, maybe sent.
      await handle.db
        .update(botIntents)
        .set({ status: 'pending' })
        .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, 1)));
      // Workers that each run for less than the order's window, the first look-up of each unanswered: the
      // window counts from the first of them, which knows the killed call ended before it started.
      const runMs = window / 3;
      for (let run = 0; run < 8 && fake.book.executedWithId(cid).length === 0; run += 1) {
        fake.inject('GET /api/v3/order', { kind: 'answer', status: 502, body: 'Bad Gateway' });
        const worker = workerOn(feed, exchange);
        await worker.start();
        await new Promise((resolve) => setTimeout(resolve, runMs));
        await worker.stop();
      }
      const posts = fake.requests.filter(
        (r) => `${r.method} ${r.path}` === path && r.params.newClientOrderId === cid,
      );
      expect(posts.map((r) => r.outcome)).toEqual(['resetBefore', 'answered']);
      expect(fake.book.executedWithId(cid)).toHaveLength(1);
      expect((await firstIntent(botId))?.status).toBe('filled');
    } finally {
      await fake.close();
    }
  });
});
