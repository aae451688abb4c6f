import {
  botCommands,
  botFills,
  botIntents,
  bots,
  createTestDb,
  type DbHandle,
  paperOrders,
} from '@gridbot/db';
import { type Exchange, PaperExchange } from '@gridbot/exchange';
import { eventually, ManualFeed } from '@gridbot/exchange/testing';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandResults } from '../bus/command-results';
import { SecretBox } from '../lib/secret-box';
import { type CommandDeps, type CommandOutcome, sendBotCommand } from '../modules/bots/bot-commands.service';
import type { ExchangeGateway } from '../modules/exchange/exchange-gateway';
import { paperGateway } from '../modules/exchange/exchange-gateway';
import { SqlPaperStore } from '../modules/paper/sql-paper-store.repo';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { testSupervisor } from '../testing/test-supervisor';
import type { BotSupervisor } from './bot-supervisor';

// docs/trading-rules.md §3 "A stopping bot is not done until its last order is": a worker that dies around a bot's final
// sell (stop and sell, stoploss) leaves the bot to the next worker, which sends that sell once or books
// the one the exchange already filled.
let handle: DbHandle;
const secrets = SecretBox.fromKey(Buffer.alloc(32, 5));

beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

/** An exchange whose sells never answer: `sent` says whether the order reached the venue first. */
function deadOnSell(exchange: Exchange, sent: boolean): Exchange {
  return {
    ...exchange,
    placeOrder: async (input) => {
      if (input.side === 'buy') return exchange.placeOrder(input);
      if (sent) await exchange.placeOrder(input);
      return new Promise(() => {});
    },
    fetchOrder: (...args) => exchange.fetchOrder(...args),
  };
}

function supervisorOn(feed: ManualFeed, exchanges: ExchangeGateway) {
  return testSupervisor(handle.db, feed, exchanges);
}

async function fillsOf(botId: string) {
  return handle.db.select().from(botFills).where(eq(botFills.botId, botId)).orderBy(asc(botFills.seq));
}

async function botRow(botId: string) {
  const [row] = await handle.db.select().from(bots).where(eq(bots.id, botId));
  return row!;
}

/**
 * A bot that bought grid 1 at 2000 on a worker whose sells never come back; `trigger` starts its final
 * sell. The worker is then abandoned as a killed process would be (nothing more is written by it).
 */
async function crashDuringFinalSell(
  sent: boolean,
  trigger: (botId: string, first: BotSupervisor, feed: ManualFeed) => void,
) {
  const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
  const paper = new PaperExchange({ store: new SqlPaperStore(handle.db), feed });
  await paper.start();
  const userId = await insertUserWithKeys(handle.db, secrets);
  const botId = await insertBot(handle.db, userId, { settings: { stoplossPrice: 1990 } });
  const dead: ExchangeGateway = {
    ...paperGateway(paper),
    forUser: (id) => deadOnSell(paper.forUser(id), sent),
  };
  const first = supervisorOn(feed, dead);
  await first.start();
  feed.setPrice('ETHUSDT', 'spot', '2000');
  await eventually(async () => expect(await fillsOf(botId)).toHaveLength(1));
  trigger(botId, first, feed);
  await eventually(async () => {
    const intents = await handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));
    expect(intents.map((i) => i.kind)).toEqual(['MarketBuy', 'SellLots']);
  });
  if (sent)
    await eventually(async () =>
      expect(await handle.db.select().from(paperOrders).where(eq(paperOrders.userId, userId))).toHaveLength(
        2,
      ),
    );
  return { feed, paper, userId, botId };
}

async function restartAndSettle(feed: ManualFeed, paper: PaperExchange, botId: string, userId: string) {
  const second = supervisorOn(feed, paperGateway(paper));
  await second.start();
  await eventually(async () => expect((await botRow(botId)).status).toBe('Stopped'));
  const fills = await fillsOf(botId);
  expect(fills.map((f) => f.side)).toEqual(['buy', 'sell']);
  const orders = await handle.db.select().from(paperOrders).where(eq(paperOrders.userId, userId));
  expect(orders).toHaveLength(2);
  expect(second.runner(botId)).toBeUndefined();
  await second.stop();
  await paper.stop();
  return fills;
}

describe('a worker killed during a final sell', () => {
  it('answers "stop requested" and sends a stop-and-sell written but never sent once, after the restart', async () => {
    let answer: Promise<CommandOutcome> | undefined;
    const { feed, paper, userId, botId } = await crashDuringFinalSell(false, (id, first) => {
      const deps: CommandDeps = {
        db: handle.db,
        state: { commandResults: new CommandResults(undefined) },
        // The road of every role: the command is handed to the runtime, which applies it in its own time.
        botControl: {
          add: async () => {},
          notify: async (bot: string) => void first.notify(bot).catch(() => undefined),
        },
      };
      answer = sendBotCommand(deps, id, { type: 'stop_sell' }, 'failed', 500);
    });
    // The sale never came back: the user is not told it sold, and the bot shows it is stopping.
    expect(await answer).toBe('requested');
    expect((await botRow(botId)).status).toBe('Stopping');
    const [applied] = await handle.db.select().from(botCommands).where(eq(botCommands.botId, botId));
    expect(applied?.status).toBe('applied');
    const fills = await restartAndSettle(feed, paper, botId, userId);
    // The sale sells all the buy left: 0.2 ETH less its 0.1 % fee taken in ETH.
    expect([fills[0]!.qty, fills[1]!.qty]).toEqual(['0.2', '0.1998']);
    expect(await botRow(botId)).toMatchObject({ stopReason: 'manual_sell' });
    const [command] = await handle.db.select().from(botCommands).where(eq(botCommands.botId, botId));
    expect(command?.status).toBe('done');
  });

  it('books a stoploss sell the exchange filled before the crash, without sending it again', async () => {
    const { feed, paper, userId, botId } = await crashDuringFinalSell(true, (_id, _first, feed) => {
      // 1990 is at the stoploss price set below: the next tick sells everything and stops the bot.
      feed.setPrice('ETHUSDT', 'spot', '1990');
    });
    expect((await botRow(botId)).status).toBe('Stopping');
    await restartAndSettle(feed, paper, botId, userId);
    expect(await botRow(botId)).toMatchObject({ stopReason: 'stoploss' });
  });

  it('runs a halted bot stopped with sell until its unanswered sale is booked', async () => {
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
    const paper = new PaperExchange({ store: new SqlPaperStore(handle.db), feed });
    await paper.start();
    const userId = await insertUserWithKeys(handle.db, secrets);
    const botId = await insertBot(handle.db, userId);
    const before = supervisorOn(feed, paperGateway(paper));
    await before.start();
    feed.setPrice('ETHUSDT', 'spot', '2000');
    await eventually(async () => expect(await fillsOf(botId)).toHaveLength(1));
    await before.stop();
    // The runtime halted it; nothing runs it now.
    await handle.db
      .update(bots)
      .set({ haltReason: 'Orders keep failing: busy', status: 'Pause' })
      .where(eq(bots.id, botId));

    // Its sell gets no answer the first time (a timeout: the order may or may not exist).
    let timedOut = false;
    const flaky = (exchange: Exchange): Exchange => ({
      ...exchange,
      placeOrder: async (input) => {
        if (input.side === 'sell' && !timedOut) {
          timedOut = true;
          throw new Error('ETIMEDOUT');
        }
        return exchange.placeOrder(input);
      },
      fetchOrder: (...args) => exchange.fetchOrder(...args),
    });
    const after = supervisorOn(feed, { ...paperGateway(paper), forUser: (id) => flaky(paper.forUser(id)) });
    await after.start();
    expect(after.runner(botId)).toBeUndefined();
    await handle.db.insert(botCommands).values({ botId, type: 'stop_sell', payload: {} });
    await after.notify(botId);
    await eventually(async () => expect((await botRow(botId)).status).toBe('Stopped'), 10_000);
    expect((await fillsOf(botId)).map((f) => f.side)).toEqual(['buy', 'sell']);
    const [command] = await handle.db.select().from(botCommands).where(eq(botCommands.botId, botId));
    expect(command?.status).toBe('done');
    expect(after.runner(botId)).toBeUndefined();
    await after.stop();
    await paper.stop();
  });
});
