import { bots, createTestDb, type DbHandle } from '@gridbot/db';
import { BinanceExchange, HEDGE_MODE_MESSAGE } from '@gridbot/exchange/binance';
import { eventually, FakeBinanceServer, ManualFeed, virtualRateGate } from '@gridbot/exchange/testing';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { BotSupervisor } from './bot-supervisor';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

/** A 10× ETH futures bot on the Binance double, its first grid bought at 2000. */
async function futuresBotOnTheDouble(prepare: (fake: FakeBinanceServer) => void = () => {}) {
  const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
  prepare(fake);
  fake.setPrice('ETHUSDT', 'future', '2000');
  fake.book.transfer('MAIN_UMFUTURE', 'USDT', '1000');
  const exchange = new BinanceExchange({
    apiKey: 'k',
    secret: 's',
    baseUrl: fake.url,
    enableRateLimit: false,
    retry: { sleep: async () => {}, random: () => 0.5 },
    gate: virtualRateGate().gate,
  });
  const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 8)));
  const botId = await insertBot(handle.db, userId, { market: 'future', leverage: 10, investment: 500 });
  const feed = new ManualFeed({ 'future:ETHUSDT': '2000' });
  const halts: string[] = [];
  const supervisor = new BotSupervisor({
    db: handle.db,
    feed,
    exchanges: { venue: 'binance', forUser: () => exchange, verifyKeys: async () => true },
    loadKeys: async () => ({ apiKey: 'k', secret: 's' }),
    now: () => Date.now(),
    log: (message, extra) => {
      if (message === 'bot halted') halts.push(String(extra?.reason));
    },
  });
  await supervisor.start();
  feed.setPrice('ETHUSDT', 'future', '2000');
  return { fake, feed, supervisor, botId, halts };
}

/** The bot's first grid bought and booked, its queue idle. */
async function withFirstGrid() {
  const { fake, feed, supervisor, botId, halts } = await futuresBotOnTheDouble();
  await eventually(async () => expect(fake.book.positions.get('ETHUSDT')?.qty.toFixed()).toBe('1'), 20_000);
  // The runner's queue has booked the buy and compared it with the exchange's position (the check the
  // fill queued included).
  await eventually(
    async () => expect((await botRow(botId)).engineState).toMatchObject({ pending: [] }),
    20_000,
  );
  await supervisor.runner(botId)?.checkPosition();
  await supervisor.runner(botId)?.checkPosition();
  expect((await botRow(botId)).engineState).toMatchObject({ lots: [{ qty: 1 }] });
  return { fake, feed, supervisor, botId, halts };
}

async function botRow(botId: string) {
  const [row] = await handle.db.select().from(bots).where(eq(bots.id, botId));
  return row!;
}

describe('the exchange is the authority on a futures position', { timeout: 60_000 }, () => {
  let close: () => Promise<void> = async () => {};
  afterEach(async () => {
    await close();
  });

  it('a position the exchange liquidated first stops the bot with reason liquidated', async () => {
    const { fake, supervisor, botId, halts } = await withFirstGrid();
    close = async () => {
      await supervisor.stop();
      await fake.close();
    };
    const liq = fake.book.liquidationPrice('ETHUSDT')!;
    // Only the exchange's mark price reaches it: the bot's feed still says 2000.
    fake.setPrice('ETHUSDT', 'future', liq.minus(1).toFixed(2));
    expect(fake.book.liquidations).toHaveLength(1);
    await supervisor.runner(botId)?.checkPosition();
    await eventually(
      async () => expect(await botRow(botId)).toMatchObject({ status: 'Stopped', stopReason: 'liquidated' }),
      20_000,
    );
    expect(halts).toEqual([]);
    expect((await botRow(botId)).engineState).toMatchObject({ lots: [] });
  });

  it('an exit refused with -2022 because the position is gone is reconciled, not retried into a halt', async () => {
    const { fake, feed, supervisor, botId, halts } = await withFirstGrid();
    close = async () => {
      await supervisor.stop();
      await fake.close();
    };
    const liq = fake.book.liquidationPrice('ETHUSDT')!;
    fake.setPrice('ETHUSDT', 'future', liq.minus(1).toFixed(2));
    fake.setPrice('ETHUSDT', 'future', '2030');
    // The bot's take-profit (1 %) sends a reduce-only sell of a position that no longer exists.
    feed.setPrice('ETHUSDT', 'future', '2030');
    await eventually(
      async () => expect(await botRow(botId)).toMatchObject({ status: 'Stopped', stopReason: 'liquidated' }),
      20_000,
    );
    expect(
      fake.requests.some(
        (r) => r.method === 'POST' && r.path === '/fapi/v1/order' && r.params.side === 'SELL',
      ),
    ).toBe(true);
    expect(halts).toEqual([]);
    expect((await botRow(botId)).haltReason ?? null).toBeNull();
  });

  it('sets isolated margin and the leverage before the first order of a position', async () => {
    const { fake, supervisor, botId } = await withFirstGrid();
    close = async () => {
      await supervisor.stop();
      await fake.close();
    };
    expect(fake.book.marginType.get('ETHUSDT')).toBe('ISOLATED');
    expect(fake.book.leverageOf('ETHUSDT')).toBe(10);
    const paths = fake.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths.indexOf('POST /fapi/v1/leverage')).toBeLessThan(paths.indexOf('POST /fapi/v1/order'));
    expect(await botRow(botId)).toMatchObject({ haltReason: null });
  });

  it('a hedge-mode account halts the bot with a clear message and no order', async () => {
    const { fake, supervisor, botId } = await futuresBotOnTheDouble((f) => {
      f.book.dualSidePosition = true;
    });
    close = async () => {
      await supervisor.stop();
      await fake.close();
    };
    await eventually(
      async () => expect(await botRow(botId)).toMatchObject({ haltReason: HEDGE_MODE_MESSAGE }),
      20_000,
    );
    expect(fake.requests.some((r) => r.path === '/fapi/v1/order')).toBe(false);
  });
});
