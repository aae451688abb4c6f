import { botCommands, botFills, botIntents, bots, createTestDb, type DbHandle } from '@gridbot/db';
import { type Exchange, PaperExchange } from '@gridbot/exchange';
import { eventually, ManualFeed } from '@gridbot/exchange/testing';
import { money } from '@gridbot/shared';
import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { type ExchangeGateway, paperGateway } from '../modules/exchange/exchange-gateway';
import { SqlPaperStore } from '../modules/paper/sql-paper-store.repo';
import { noMetrics } from '../ops/metrics';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { testSupervisor } from '../testing/test-supervisor';
import { deferred, quietFor, within } from '../testing/waits';
import { onFaultPoint } from './fault-points';

let handle: DbHandle;
const secrets = SecretBox.fromKey(Buffer.alloc(32, 3));

beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

async function harness() {
  const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
  const paper = new PaperExchange({ store: new SqlPaperStore(handle.db), feed });
  await paper.start();
  const writes: string[] = [];
  const supervisor = testSupervisor(handle.db, feed, paperGateway(paper), {
    metrics: { ...noMetrics, dbWrite: (kind, seconds) => writes.push(`${kind} ${seconds >= 0}`) },
  });
  return { feed, paper, supervisor, writes };
}

/** A supervisor running one fresh bot that has bought grid 1 at 2000. */
async function botAfterFirstBuy() {
  const running = await harness();
  const userId = await insertUserWithKeys(handle.db, secrets);
  const botId = await insertBot(handle.db, userId);
  await running.supervisor.start();
  running.feed.setPrice('ETHUSDT', 'spot', '2000');
  await eventually(async () => expect(await fillsOf(botId)).toHaveLength(1));
  // The fill's task steps the bot again at its price and may queue a write of what that moved: let it end.
  await running.supervisor.runner(botId)?.serial(async () => {});
  return { ...running, botId };
}

/**
 * A bot whose first intent was written and never sent: its task broke right after the write, and its worker
 * stopped before it could load the bot again. `worker` makes supervisors of the same market.
 */
async function botWithUnsentIntent() {
  const { feed, paper } = await harness();
  const userId = await insertUserWithKeys(handle.db, secrets);
  const botId = await insertBot(handle.db, userId);
  let crashes = 0;
  onFaultPoint((point, detail) => {
    if (point !== 'intent-written' || detail.botId !== botId || crashes > 0) return;
    crashes += 1;
    throw new Error('task broken after its intent was written');
  });
  // Reloads after a second: long enough that the stop below comes first on a loaded host too.
  const worker = (exchanges: ExchangeGateway = paperGateway(paper)) =>
    testSupervisor(handle.db, feed, exchanges, { reloadDelayMs: 1000 });
  const first = worker();
  try {
    await first.start();
    feed.setPrice('ETHUSDT', 'spot', '2000');
    await eventually(async () => expect(crashes).toBe(1), 3000);
    await first.stop();
  } finally {
    onFaultPoint(() => {});
  }
  return { feed, paper, botId, worker };
}

/**
 * The paper exchange with its look-ups held until `answer` resolves: `asked` says whether one came, `placed`
 * lists the client order ids of the orders sent.
 */
function lookUpsHeld(paper: PaperExchange) {
  const answer = deferred();
  let asked = false;
  const placed: string[] = [];
  const exchanges: ExchangeGateway = {
    ...paperGateway(paper),
    forUser: (userId) => {
      const exchange = paper.forUser(userId);
      return Object.assign(Object.create(exchange) as Exchange, {
        fetchOrder: async (...args: Parameters<Exchange['fetchOrder']>) => {
          asked = true;
          await answer.promise;
          return exchange.fetchOrder(...args);
        },
        placeOrder: async (order: Parameters<Exchange['placeOrder']>[0]) => {
          placed.push(order.clientOrderId);
          return exchange.placeOrder(order);
        },
      });
    },
  };
  return { exchanges, answer, asked: () => asked, placed };
}

/** Counts the feed's subscribers: two for one bot would be two runners trading it on every tick. */
function countSubscriptions(feed: ManualFeed) {
  let subscribed = 0;
  const subscribe = feed.subscribe.bind(feed);
  feed.subscribe = (...args) => {
    subscribed += 1;
    const unsubscribe = subscribe(...args);
    return () => {
      subscribed -= 1;
      unsubscribe();
    };
  };
  return () => subscribed;
}

async function fillsOf(botId: string) {
  return handle.db.select().from(botFills).where(eq(botFills.botId, botId)).orderBy(asc(botFills.seq));
}

describe('bot supervisor on the paper exchange', () => {
  it('buys, buys deeper and takes profit, writing every fill with the state', async () => {
    const { feed, paper, supervisor, writes } = await harness();
    const userId = await insertUserWithKeys(handle.db, secrets);
    const botId = await insertBot(handle.db, userId);
    await supervisor.start();

    // 2000: empty stack → grid 1 at market with 1000 × 0.4 = 400 USDT → 0.2 ETH.
    feed.setPrice('ETHUSDT', 'spot', '2000');
    await eventually(async () => expect(await fillsOf(botId)).toHaveLength(1));
    // 1980 = 2000 × (1 − 1 %) → grid 2 with 300 USDT → floor(300 / 1980, 0.0001) = 0.1515 ETH.
    feed.setPrice('ETHUSDT', 'spot', '1980');
    await eventually(async () => expect(await fillsOf(botId)).toHaveLength(2));
    // 2000 ≥ 1980 × 1.01 = 1999.8 → the newest lot (grid 2) sells; grid 1 needs 2020. The bot walks the line
    // from 1980 to 2000 and its sell fills at the level it crossed, 1999.8 (docs/trading-rules.md §2.5).
    feed.setPrice('ETHUSDT', 'spot', '2000');
    await eventually(async () => expect(await fillsOf(botId)).toHaveLength(3));
    feed.setPrice('ETHUSDT', 'spot', '2020');
    // 2020 ≥ 2000 × 1.01 → grid 1 sells; the stack is empty, so step 4 of the same tick (docs/trading-rules.md §2.2) buys
    // grid 1 again at market: 400 / 2020 = 0.19801… → 0.198 ETH.
    await eventually(async () => expect(await fillsOf(botId)).toHaveLength(5));

    const fills = await fillsOf(botId);
    expect(fills.map((f) => [f.side, f.grid, f.price, f.qty])).toEqual([
      ['buy', 1, '2000', '0.2'],
      ['buy', 2, '1980', '0.1515'],
      // Each lot holds its buy less the fee taken in ETH (0.1 %), sold to the step (0.0001): grid 2 holds
      // 0.1515 − 0.0001515 = 0.1513485 and sells 0.1513; grid 1 holds and sells 0.2 − 0.0002 = 0.1998.
      ['sell', 2, '1999.8', '0.1513'],
      ['sell', 1, '2020', '0.1998'],
      ['buy', 1, '2020', '0.198'],
    ]);
    // Grid 2: sold 0.1513 × 1999.8 = 302.56974 − fee 0.30256974 − bought 299.97 = 2.29717026 (its buy fee,
    // 0.0001515 ETH, came out of the coins bought); the 0.0000485 ETH below the step stays as dust
    // (docs/trading-rules.md §3).
    expect(Number(fills[2]!.pnl)).toBeCloseTo(2.29717026, 6);
    const intents = await handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));
    expect(intents.every((i) => i.status === 'filled')).toBe(true);

    // The paper ledger agrees with the bot's fills to the cent.
    const ledger = await paper.store.ledger(userId);
    const usdt = ledger.filter((l) => l.asset === 'USDT').reduce((sum, l) => sum.plus(l.amount), money(0));
    // A buy's fee came out of the ETH bought (docs/trading-rules.md §3): it pays its quote only.
    const fromFills = fills.reduce(
      (sum, f) => (f.side === 'buy' ? sum.minus(f.quote) : sum.plus(f.quote).minus(f.fee)),
      money(10_000),
    );
    expect(usdt.toFixed(8)).toBe(fromFills.toFixed(8));
    // Each grouped write is timed for GET /metrics.
    expect(writes).toContain('intents true');
    expect(writes).toContain('fills true');

    await supervisor.stop();
    await paper.stop();
  });

  it('reloads a bot from the database when a write fails half-way, and trades on', async () => {
    const { feed, paper } = await harness();
    const userId = await insertUserWithKeys(handle.db, secrets);
    const botId = await insertBot(handle.db, userId);
    let failOnce = true;
    // The database refuses the first statement (the intent write): the runner must not go on from memory.
    const flakyDb = new Proxy(handle.db, {
      get(target, prop, receiver) {
        if (prop === 'execute' && failOnce) {
          failOnce = false;
          return () => Promise.reject(new Error('connection lost'));
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    const supervisor = testSupervisor(flakyDb, feed, paperGateway(paper), { reloadDelayMs: 50 });
    await supervisor.start();
    const first = supervisor.runner(botId);
    feed.setPrice('ETHUSDT', 'spot', '2000');
    await eventually(async () => {
      const next = supervisor.runner(botId);
      expect(next).toBeDefined();
      expect(next).not.toBe(first);
    }, 3000);
    feed.setPrice('ETHUSDT', 'spot', '2001');
    await eventually(async () => expect(await fillsOf(botId)).toHaveLength(1), 5000);
    const intents = await handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));
    expect(intents.map((i) => [i.seq, i.status])).toEqual([[1, 'filled']]);
    await supervisor.stop();
    await paper.stop();
  });

  it('sends nothing for a bot it was about to load again once it has stopped', async () => {
    const { feed, paper, botId, worker } = await botWithUnsentIntent();
    const next = worker();
    try {
      // Past the reload's delay: a stopped worker loads nothing more, so it sends nothing more; the next
      // worker to load the bot settles the intent.
      await quietFor(1500);
      const [intent] = await handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));
      expect(intent?.status).toBe('pending');
      expect(await fillsOf(botId)).toEqual([]);
      await next.start();
      feed.setPrice('ETHUSDT', 'spot', '2000');
      await eventually(async () => expect(await fillsOf(botId)).toHaveLength(1), 5000);
    } finally {
      await next.stop();
      await paper.stop();
    }
  });

  it('sends nothing for an intent it was looking up when it stopped', async () => {
    const { paper, botId, worker } = await botWithUnsentIntent();
    // The exchange answers the look-up only once the worker is stopping, and counts the orders sent.
    const { exchanges, answer, asked, placed } = lookUpsHeld(paper);
    const supervisor = worker(exchanges);
    try {
      const started = supervisor.start();
      await eventually(async () => expect(asked()).toBe(true), 5000);
      const stopped = supervisor.stop();
      answer.resolve();
      await Promise.all([started, stopped]);
      await quietFor(300);
      expect(placed).toEqual([]);
      expect(await fillsOf(botId)).toEqual([]);
    } finally {
      answer.resolve();
      await paper.stop();
    }
  });

  it('has read every bot when it starts answering, and runs a bot once when a command meets its launch', async () => {
    const { feed, paper, botId, worker } = await botWithUnsentIntent();
    // The launch looks up the unsent intent's order, and the exchange holds the answer.
    const { exchanges, answer, asked, placed } = lookUpsHeld(paper);
    const subscribed = countSubscriptions(feed);
    const supervisor = worker(exchanges);
    try {
      const started = await within(supervisor.startLaunching(), 5000);
      if (started === 'waiting') throw new Error('the bots were not read within 5 s');
      await eventually(async () => expect(asked()).toBe(true), 5000);
      expect(await within(started.launched, 300)).toBe('waiting');
      // A start and a command arrive while the launch waits: they wait for it, and load nothing twice.
      await handle.db.insert(botCommands).values({ botId, type: 'new_cycles', payload: { allowed: true } });
      const commanded = Promise.all([supervisor.add(botId), supervisor.notify(botId)]);
      expect(await within(commanded, 300)).toBe('waiting');
      answer.resolve();
      await started.launched;
      await commanded;
      // One subscription per bot running (other tests' bots of this database run here too).
      expect(supervisor.runner(botId)).toBeDefined();
      expect(subscribed()).toBe(supervisor.size);
      // The unsent intent's order went out once, and the bot trades on.
      expect(placed).toHaveLength(1);
      feed.setPrice('ETHUSDT', 'spot', '2000');
      await eventually(async () => expect(await fillsOf(botId)).toHaveLength(1), 5000);
      expect(placed).toHaveLength(1);
    } finally {
      answer.resolve();
      await supervisor.stop();
      await paper.stop();
    }
  });

  it('stops and sells on command and lets the bot go', async () => {
    const { paper, supervisor, botId } = await botAfterFirstBuy();

    await handle.db.insert(botCommands).values({ botId, type: 'stop_sell', payload: {} });
    await supervisor.notify(botId);
    const fills = await fillsOf(botId);
    expect(fills.map((f) => f.side)).toEqual(['buy', 'sell']);
    const [row] = await handle.db.select().from(bots).where(eq(bots.id, botId));
    expect(row).toMatchObject({ status: 'Stopped', stopReason: 'manual_sell', closedPrice: '2000' });
    expect(supervisor.runner(botId)).toBeUndefined();
    await supervisor.stop();
    await paper.stop();
  });

  it('carries out at its start a stop and sell queued for a halted bot while no server ran', async () => {
    const first = await botAfterFirstBuy();
    await first.supervisor.runner(first.botId)?.haltWith('Order failed: exchange unavailable');
    await first.supervisor.stop();
    await first.paper.stop();
    // The member stops and sells while the worker is down: nothing is told but the database.
    await handle.db.insert(botCommands).values({ botId: first.botId, type: 'stop_sell', payload: {} });

    const next = await harness();
    await next.supervisor.start();
    await eventually(async () => {
      const [row] = await handle.db.select().from(bots).where(eq(bots.id, first.botId));
      expect(row).toMatchObject({ status: 'Stopped', stopReason: 'manual_sell' });
    });
    expect((await fillsOf(first.botId)).map((f) => f.side)).toEqual(['buy', 'sell']);
    await next.supervisor.stop();
    await next.paper.stop();
  });

  it('runs a bot once when it is loaded and commanded at the same time', async () => {
    const { feed, paper, supervisor } = await harness();
    await supervisor.start();
    const subscribed = countSubscriptions(feed);
    const userId = await insertUserWithKeys(handle.db, secrets);
    const botId = await insertBot(handle.db, userId);
    // A reload of the bot (after a failed write) and a user's command meet.
    await handle.db.insert(botCommands).values({ botId, type: 'new_cycles', payload: { allowed: true } });
    await Promise.all([supervisor.add(botId), supervisor.notify(botId), supervisor.add(botId)]);
    expect(subscribed()).toBe(1);
    feed.setPrice('ETHUSDT', 'spot', '2000');
    await eventually(async () => expect(await fillsOf(botId)).toHaveLength(1));
    feed.setPrice('ETHUSDT', 'spot', '1980');
    await eventually(async () => expect(await fillsOf(botId)).toHaveLength(2));
    expect((await fillsOf(botId)).map((f) => [f.side, f.grid])).toEqual([
      ['buy', 1],
      ['buy', 2],
    ]);
    await supervisor.stop();
    await paper.stop();
  });

  it('writes the state of a tick that moved it, and nothing for a quiet tick', async () => {
    const { paper, supervisor, botId } = await botAfterFirstBuy();
    const runner = supervisor.runner(botId)!;
    const version = async () =>
      (await handle.db.select({ v: bots.stateVersion }).from(bots).where(eq(bots.id, botId)))[0]!.v;
    const tickAndFlush = async (price: number) => {
      await runner.onTick(price, Date.now());
      await runner.flush();
      return version();
    };

    // 1990: a new drawdown (the statistics move). 1995: no buy (1980), no take-profit (2020), no new peak
    // or drawdown: the engine answers the same state and nothing is written. 1985: a deeper drawdown.
    const moved = await tickAndFlush(1990);
    expect(await tickAndFlush(1995)).toBe(moved);
    expect(await tickAndFlush(1985)).toBe(moved + 1);
    await supervisor.stop();
    await paper.stop();
  });

  it('takes a quiet tick at once, and a tick that comes while a task runs after that task', async () => {
    const { paper, supervisor, botId } = await botAfterFirstBuy();
    const runner = supervisor.runner(botId)!;
    // Nothing queued and nothing to send: the tick is done when the call returns (no task, no promise).
    expect(runner.onTick(1995, Date.now())).toBeUndefined();

    let release = () => {};
    const slow = runner.serial(() => new Promise<void>((resolve) => (release = resolve)));
    // 1980 buys grid 2, but only once the task before it has finished.
    const tick = runner.onTick(1980, Date.now());
    expect(tick).toBeInstanceOf(Promise);
    await quietFor(100);
    expect(await fillsOf(botId)).toHaveLength(1);
    release();
    await Promise.all([slow, tick]);
    // Grid 2 fills at its level, 1980, though the paper exchange's feed still quotes 2000.
    expect((await fillsOf(botId)).map((f) => [f.side, f.grid, f.price])).toEqual([
      ['buy', 1, '2000'],
      ['buy', 2, '1980'],
    ]);
    await supervisor.stop();
    await paper.stop();
  });

  it('starts many bots in batches: commands applied first, a bot without keys halted, the others trading', async () => {
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
    const paper = new PaperExchange({ store: new SqlPaperStore(handle.db), feed });
    await paper.start();
    const withKeys = await insertUserWithKeys(handle.db, secrets);
    const withoutKeys = await insertUserWithKeys(handle.db, secrets);
    const supervisor = testSupervisor(handle.db, feed, paperGateway(paper), {
      loadKeys: async (userId) => (userId === withoutKeys ? undefined : { apiKey: 'k', secret: 's' }),
    });
    // One running bot per user and pair: 300 users with a bot each on the priced pair.
    const trading = await Promise.all(
      Array.from({ length: 300 }, async () =>
        insertBot(handle.db, await insertUserWithKeys(handle.db, secrets)),
      ),
    );
    const stopping = await insertBot(handle.db, withKeys);
    await handle.db.insert(botCommands).values({ botId: stopping, type: 'stop', payload: {} });
    const keyless = await insertBot(handle.db, withoutKeys);
    await supervisor.start();

    expect(trading.every((id) => supervisor.runner(id) !== undefined)).toBe(true);
    expect(supervisor.runner(stopping)).toBeUndefined();
    expect(supervisor.runner(keyless)).toBeUndefined();
    const rows = await handle.db
      .select()
      .from(bots)
      .where(inArray(bots.id, [stopping, keyless]));
    expect(rows.find((r) => r.id === stopping)).toMatchObject({ status: 'Stopped', haltReason: null });
    expect(rows.find((r) => r.id === keyless)?.haltReason).toBe(
      'API keys are not connected. Connect them in API Setting.',
    );
    const [done] = await handle.db.select().from(botCommands).where(eq(botCommands.botId, stopping));
    expect(done?.status).toBe('done');
    await supervisor.stop();
    await paper.stop();
    // 300 funded accounts would all trade under the next test's supervisor: they are done here.
    await handle.db
      .update(bots)
      .set({ status: 'Stopped' })
      .where(inArray(bots.id, [...trading, keyless]));
  });

  it('books a fee paid in BNB at the last BNB price', async () => {
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2000', 'spot:BNBUSDT': '600' });
    const paper = new PaperExchange({ store: new SqlPaperStore(handle.db), feed });
    await paper.start();
    // The venue answers as Binance does for a user who pays fees with BNB: 0.00050 BNB for this buy.
    const inBnb = (exchange: Exchange): Exchange => ({
      ...exchange,
      placeOrder: async (input) => ({
        ...(await exchange.placeOrder(input)),
        fee: '0.0005',
        feeAsset: 'BNB',
      }),
      fetchOrder: (...args) => exchange.fetchOrder(...args),
    });
    const supervisor = testSupervisor(handle.db, feed, {
      venue: 'binance',
      forUser: (userId) => inBnb(paper.forUser(userId)),
      verifyKeys: async () => true,
    });
    const userId = await insertUserWithKeys(handle.db, secrets);
    const botId = await insertBot(handle.db, userId);
    await supervisor.start();
    feed.setPrice('ETHUSDT', 'spot', '2000');
    // The earlier test's 300 users' bots may still be winding down on a busy machine: wait longer than 2 s.
    await eventually(async () => expect(await fillsOf(botId)).toHaveLength(1), 15_000);
    // 0.0005 BNB × 600 = 0.3 USDT, in the order book and in the bot's fees.
    expect((await fillsOf(botId))[0]!.fee).toBe('0.3');
    expect(supervisor.runner(botId)?.currentState.account.fees).toBeCloseTo(0.3, 8);
    await supervisor.stop();
    await paper.stop();
  });
});
