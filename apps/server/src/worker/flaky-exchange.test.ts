import { botFills, botIntents, bots, createTestDb, type DbHandle } from '@gridbot/db';
import { type Exchange, ExchangeError, PaperExchange } from '@gridbot/exchange';
import { eventually, ManualFeed } from '@gridbot/exchange/testing';
import { money } from '@gridbot/shared';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { SqlPaperStore } from '../modules/paper/sql-paper-store.repo';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { runnerSettled } from '../testing/waits';
import { BotSupervisor } from './bot-supervisor';

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

/**
 * The paper exchange behind a network that fails at random (docs/trading-rules.md §3): a call may time out before it
 * reaches the venue, or after the venue executed it (the answer is lost). Both look the same to the bot.
 */
function flaky(inner: Exchange, rand: () => number, sent: string[]): Exchange {
  const timeout = () =>
    new ExchangeError('retryable', -1007, 'Timeout waiting for response from backend server.');
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'placeOrder') {
        return async (input: Parameters<Exchange['placeOrder']>[0]) => {
          const roll = rand();
          if (roll < 0.2) throw timeout();
          sent.push(input.clientOrderId);
          const order = await target.placeOrder(input);
          if (roll < 0.4) throw timeout();
          return order;
        };
      }
      if (prop === 'fetchOrder') {
        return async (...args: Parameters<Exchange['fetchOrder']>) => {
          if (rand() < 0.2) throw timeout();
          return target.fetchOrder(...args);
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}

describe('a bot on an exchange that times out at random', () => {
  it('never doubles an order and loses no fill', async () => {
    const rand = random(42);
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
    const paper = new PaperExchange({ store: new SqlPaperStore(handle.db), feed });
    await paper.start();
    const sent: string[] = [];
    const secrets = SecretBox.fromKey(Buffer.alloc(32, 5));
    const userId = await insertUserWithKeys(handle.db, secrets);
    const botId = await insertBot(handle.db, userId);
    const supervisor = new BotSupervisor({
      db: handle.db,
      feed,
      exchanges: {
        venue: 'paper',
        forUser: (id) => flaky(paper.forUser(id), rand, sent),
        verifyKeys: async () => true,
      },
      loadKeys: async () => ({ apiKey: 'k', secret: 's' }),
      now: () => Date.now(),
      log: () => {},
    });
    await supervisor.start();

    // A zig-zag market: every swing of 1.5 % buys a grid or takes a profit.
    const path = Array.from({ length: 60 }, (_, i) => 2000 * (1 + 0.015 * Math.sin(i / 2)));
    for (const price of path) {
      feed.setPrice('ETHUSDT', 'spot', price.toFixed(2));
      await runnerSettled(supervisor, botId);
    }
    // Let reconciliation settle every open intent.
    await eventually(async () => {
      const open = await handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));
      expect(open.filter((i) => i.status === 'pending' || i.status === 'unknown')).toEqual([]);
    }, 20_000);
    await supervisor.stop();
    await paper.stop();

    const fills = await handle.db
      .select()
      .from(botFills)
      .where(eq(botFills.botId, botId))
      .orderBy(asc(botFills.seq));
    expect(fills.length).toBeGreaterThan(4);
    // Every fill is one filled order of the venue under the intent's client order id.
    const orders = await Promise.all(fills.map((f) => paper.store.order(userId, f.clientOrderId)));
    expect(orders.every((o) => o?.status === 'FILLED')).toBe(true);
    // What the venue holds in ETH is exactly what the bot's fills say it bought and sold.
    const eth = (await paper.store.ledger(userId))
      .filter((l) => l.asset === 'ETH')
      .reduce((sum, l) => sum.plus(l.amount), money(0));
    // A buy's fee is taken in ETH (docs/trading-rules.md §3): the venue keeps what its order says.
    const ethFromFills = fills.reduce((sum, f, i) => {
      const order = orders[i];
      const ethFee = order?.feeAsset === 'ETH' ? order.fee : '0';
      return f.side === 'buy' ? sum.plus(f.qty).minus(ethFee) : sum.minus(f.qty);
    }, money(0));
    expect(eth.toFixed(8)).toBe(ethFromFills.toFixed(8));
    // Every client order id the bot sent belongs to one of its intents: a resend reuses the id, never a new one.
    const intents = await handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));
    const intentIds = new Set(intents.map((i) => i.clientOrderId));
    expect(sent.every((id) => intentIds.has(id))).toBe(true);
    // The venue's USDT ledger equals the bot's fills to the cent (a buy pays its quote; its fee was in ETH).
    const usdt = (await paper.store.ledger(userId))
      .filter((l) => l.asset === 'USDT')
      .reduce((sum, l) => sum.plus(l.amount), money(0));
    const fromFills = fills.reduce(
      (sum, f) => (f.side === 'buy' ? sum.minus(f.quote) : sum.plus(f.quote).minus(f.fee)),
      money(10_000),
    );
    expect(usdt.toFixed(2)).toBe(fromFills.toFixed(2));
    const [row] = await handle.db.select().from(bots).where(eq(bots.id, botId));
    expect(row?.haltReason ?? null).toBeNull();
  }, 60_000);
});
