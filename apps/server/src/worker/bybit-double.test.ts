import { botFills, bots, createTestDb, type DbHandle } from '@gridbot/db';
import { BybitExchange } from '@gridbot/exchange/bybit';
import { eventually, FakeBybitServer, ManualFeed } from '@gridbot/exchange/testing';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandResults } from '../bus/command-results';
import { SecretBox } from '../lib/secret-box';
import { type CommandDeps, sendBotCommand } from '../modules/bots/bot-commands.service';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { BotSupervisor } from './bot-supervisor';

// A member's spot bot on Bybit (the loopback double): the runtime trades through the Bybit adapter as it
// does on Binance, and "stop with sell" sells what the bot bought there.
let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

describe('a spot bot on the Bybit double', () => {
  it('buys its first grid on Bybit and, stopped with sell, sells it there and stops', async () => {
    const fake = await FakeBybitServer.start({ apiKey: 'k', secret: 's' });
    fake.setPrice('ETHUSDT', 'spot', '2000');
    const exchange = new BybitExchange({
      apiKey: 'k',
      secret: 's',
      baseUrl: fake.url,
      enableRateLimit: false,
      retry: { sleep: async () => {}, random: () => 0.5 },
      timeoutMs: 5_000,
    });
    const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 8)));
    const botId = await insertBot(handle.db, userId, { symbol: 'ETHUSDT' });
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
    const supervisor = new BotSupervisor({
      db: handle.db,
      feed,
      exchanges: { venue: 'binance', forUser: () => exchange, verifyKeys: async () => true },
      loadKeys: async () => ({ apiKey: 'k', secret: 's', exchange: 'bybit' }),
      now: () => Date.now(),
      log: () => {},
    });
    await supervisor.start();
    const fillsOf = () =>
      handle.db.select().from(botFills).where(eq(botFills.botId, botId)).orderBy(asc(botFills.seq));
    feed.setPrice('ETHUSDT', 'spot', '2000');
    await eventually(async () => expect(await fillsOf()).toHaveLength(1), 30_000);

    const deps: CommandDeps = {
      db: handle.db,
      state: { commandResults: new CommandResults(undefined) },
      botControl: { add: async () => {}, notify: async (bot) => void supervisor.notify(bot).catch(() => {}) },
    };
    const answer = sendBotCommand(deps, botId, { type: 'stop_sell' }, 'failed', 30_000);
    await eventually(async () => {
      const [row] = await handle.db.select().from(bots).where(eq(bots.id, botId));
      expect(row).toMatchObject({ status: 'Stopped', stopReason: 'manual_sell' });
    }, 30_000);
    // The request is answered once the sale is booked, before the test's database goes away.
    expect(await answer).toBe('done');
    await supervisor.stop();
    await fake.close();

    const fills = await fillsOf();
    // Grid 1 takes 40 % of 1000 USDT: 400 USDT at 2000 buys 0.2 ETH; the sale sells that 0.2 less the
    // buy's fee taken in ETH (0.1 %: 0.0002), 0.1998 ETH.
    expect(fills.map((f) => [f.side, f.qty])).toEqual([
      ['buy', '0.2'],
      ['sell', '0.1998'],
    ]);
    // Both orders went to Bybit, one each, under the runtime's client ids.
    const posts = fake.orderPosts();
    expect(posts).toHaveLength(2);
    expect(fills.every((f) => fake.book.orders.some((o) => o.orderLinkId === f.clientOrderId))).toBe(true);
  }, 90_000);
});
