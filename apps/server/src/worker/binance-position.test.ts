import { botFills, botIntents, bots, createTestDb, type DbHandle } from '@gridbot/db';
import type { EngineState } from '@gridbot/engine';
import { HEDGE_MODE_MESSAGE } from '@gridbot/exchange/binance';
import { eventually, FakeBinanceServer, type LeverageBracket, ManualFeed } from '@gridbot/exchange/testing';
import { money } from '@gridbot/shared';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { binanceClientOf, supervisorOnBinance } from '../testing/binance-client';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

/** A 10× ETH futures bot on the Binance double, its first grid bought at 2000. */
async function futuresBotOnTheDouble(
  prepare: (fake: FakeBinanceServer) => void = () => {},
  investment = 500,
  wallet = '1000',
  brackets?: Record<string, readonly LeverageBracket[]>,
) {
  const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's', ...(brackets ? { brackets } : {}) });
  prepare(fake);
  fake.setPrice('ETHUSDT', 'future', '2000');
  fake.book.spot.set('USDT', { free: money(wallet), locked: money(0) });
  fake.book.transfer('MAIN_UMFUTURE', 'USDT', wallet);
  const exchange = binanceClientOf(fake);
  const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 8)));
  const botId = await insertBot(handle.db, userId, { market: 'future', leverage: 10, investment });
  const feed = new ManualFeed({ 'future:ETHUSDT': '2000' });
  const halts: string[] = [];
  const supervisor = supervisorOnBinance(handle.db, feed, exchange, {
    log: (message, extra) => {
      // Only this test's bot: bots earlier tests left running trade on this double too.
      if (message === 'bot halted' && extra?.botId === botId) halts.push(String(extra?.reason));
    },
  });
  await supervisor.start();
  feed.setPrice('ETHUSDT', 'future', '2000');
  return { fake, feed, supervisor, botId, halts };
}

/** The bot's first grid bought and booked, its queue idle. */
async function withFirstGrid(brackets?: Record<string, readonly LeverageBracket[]>) {
  const { fake, feed, supervisor, botId, halts } = await futuresBotOnTheDouble(
    () => {},
    500,
    '1000',
    brackets,
  );
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

  it('a position the exchange liquidated first stops the bot with reason liquidated and the exchange figures', async () => {
    // Binance has raised ETHUSDT's maintenance rate to 5 % since the bot started: it liquidates well
    // above the price the engine computed, and the bot books what the exchange did, not its own figure.
    const { fake, supervisor, botId, halts } = await withFirstGrid({
      ETHUSDT: [{ notionalFloor: 0, notionalCap: 1e12, maintMarginRatio: 0.05, initialLeverage: 20, cum: 0 }],
    });
    const engineLiq = ((await botRow(botId)).engineState as unknown as EngineState).account.liqPrice;
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
    // Booked with the exchange's figures, from its force order and trades (GET /fapi/v1/forceOrders,
    // /fapi/v1/userTrades): its price, its quantity, and a loss of the realized PnL it booked (the whole
    // isolated margin) plus the buy's commission.
    const [liquidation] = fake.book.liquidations;
    const trade = fake.book.trades.find((t) => t.realizedPnl.isNegative())!;
    const fills = await handle.db
      .select()
      .from(botFills)
      .where(eq(botFills.botId, botId))
      .orderBy(asc(botFills.seq));
    expect(fills.map((f) => f.side)).toEqual(['buy', 'sell']);
    const [buy, sell] = fills as [(typeof fills)[0], (typeof fills)[0]];
    expect(money(sell.price).toFixed(8)).toBe(trade.price.toFixed(8));
    expect(trade.price.minus(engineLiq).gt(50)).toBe(true);
    expect(money(sell.qty).toFixed()).toBe(liquidation!.qty.toFixed());
    expect(money(sell.pnl!).toFixed(8)).toBe(trade.realizedPnl.minus(buy.fee).toFixed(8));
    expect(money(sell.pnl!).toFixed(2)).toBe(liquidation!.lostMargin.plus(buy.fee).negated().toFixed(2));
  });

  it('books no liquidation the exchange did not make when the feed falls below the engine’s level', async () => {
    // The feed and the exchange disagree: the feed falls half a dollar below the engine's liquidation
    // price while the exchange's mark price stays at 2000, where the 10× long is far from liquidated.
    const { fake, feed, supervisor, botId, halts } = await withFirstGrid();
    close = async () => {
      await supervisor.stop();
      await fake.close();
    };
    const engineLiq = ((await botRow(botId)).engineState as unknown as EngineState).account.liqPrice;
    expect(engineLiq).toBeGreaterThan(1700);
    feed.setPrice('ETHUSDT', 'future', (engineLiq - 0.5).toFixed(2));
    // Queued behind the tick, so the tick has been stepped when these answer.
    await supervisor.runner(botId)?.checkPosition();
    await supervisor.runner(botId)?.checkPosition();
    expect(fake.book.liquidations).toEqual([]);
    // The bot trades on at the feed's price (its next grid may buy on the dip) and its lots stay those the
    // exchange holds.
    const held = fake.book.positions.get('ETHUSDT')?.qty;
    expect(held?.gte(1)).toBe(true);
    const row = await botRow(botId);
    expect(row.status).not.toBe('Stopped');
    const state = row.engineState as unknown as EngineState;
    expect(state.pending).toEqual([]);
    expect(state.lots.reduce((sum, lot) => sum.plus(lot.qty), money(0)).toFixed()).toBe(held?.toFixed());
    const sells = await handle.db
      .select()
      .from(botFills)
      .where(and(eq(botFills.botId, botId), eq(botFills.side, 'sell')));
    expect(sells).toEqual([]);
    // The bot still follows the position: once the exchange liquidates it, the bot books that.
    fake.setPrice('ETHUSDT', 'future', fake.book.liquidationPrice('ETHUSDT')!.minus(1).toFixed(2));
    expect(fake.book.liquidations).toHaveLength(1);
    await supervisor.runner(botId)?.checkPosition();
    await eventually(
      async () => expect(await botRow(botId)).toMatchObject({ status: 'Stopped', stopReason: 'liquidated' }),
      20_000,
    );
    const [sell] = await handle.db
      .select()
      .from(botFills)
      .where(and(eq(botFills.botId, botId), eq(botFills.side, 'sell')));
    expect(money(sell!.price).toFixed(8)).toBe(fake.book.liquidations[0]!.price.toFixed(8));
    expect(halts).toEqual([]);
  });

  it('asks the exchange before trading on a feed at the engine’s level, and books its liquidation instead of buying', async () => {
    // The exchange has liquidated the long on its mark price; the feed then falls below the engine's level,
    // a dip that would buy the next grid on the lot the exchange already closed.
    const { fake, feed, supervisor, botId, halts } = await withFirstGrid();
    close = async () => {
      await supervisor.stop();
      await fake.close();
    };
    const engineLiq = ((await botRow(botId)).engineState as unknown as EngineState).account.liqPrice;
    fake.setPrice('ETHUSDT', 'future', fake.book.liquidationPrice('ETHUSDT')!.minus(1).toFixed(2));
    expect(fake.book.liquidations).toHaveLength(1);
    feed.setPrice('ETHUSDT', 'future', (engineLiq - 0.5).toFixed(2));
    // No check of the minute is called here: the tick itself sends the bot to the exchange.
    await eventually(
      async () => expect(await botRow(botId)).toMatchObject({ status: 'Stopped', stopReason: 'liquidated' }),
      20_000,
    );
    const buys = fake.requests.filter(
      (r) => r.method === 'POST' && r.path === '/fapi/v1/order' && r.params.side === 'BUY',
    );
    expect(buys).toHaveLength(1);
    expect(fake.book.positions.get('ETHUSDT')).toBeUndefined();
    expect(halts).toEqual([]);
  });

  it("keeps the engine's liquidation price equal to the exchange's after every fill, through a partial take-profit and a rebuy", async () => {
    // 10 000 at 10×: grid 1 (40 %) is 40 000 of notional, bracket 1 of ETHUSDT (0.4 %, cum 0); with grid 2
    // the position passes 50 000 and moves to bracket 2 (0.5 %, cum 50), so brackets and cum both count.
    const { fake, feed, supervisor, botId } = await futuresBotOnTheDouble(() => {}, 10_000, '30000');
    close = async () => {
      await supervisor.stop();
      await fake.close();
    };
    const liqs: [string, string][] = [];
    const compareAfterFill = async (fills: number) => {
      await eventually(async () => {
        const row = await botRow(botId);
        expect(row.fillCount).toBe(fills);
        expect((row.engineState as unknown as EngineState).pending).toEqual([]);
      }, 20_000);
      const state = (await botRow(botId)).engineState as unknown as EngineState;
      const exchange = fake.book.liquidationPrice('ETHUSDT');
      liqs.push([String(state.account.liqPrice), exchange?.toFixed(8) ?? '0']);
      expect(exchange).toBeDefined();
      expect(money(state.account.liqPrice).minus(exchange!).abs().lt('0.000001')).toBe(true);
    };
    const move = (price: string) => {
      fake.setPrice('ETHUSDT', 'future', price);
      feed.setPrice('ETHUSDT', 'future', price);
    };
    await compareAfterFill(1); // grid 1: 20 ETH at 2000
    move('1980');
    await compareAfterFill(2); // grid 2: 15.151 ETH at 1980, bracket 2
    move('1999.8');
    await compareAfterFill(3); // grid 2's take-profit (1 %): a partial close, average entry kept
    expect(fake.book.positions.get('ETHUSDT')?.qty.toFixed()).toBe('20');
    move('1990');
    move('1980');
    await compareAfterFill(4); // grid 2 bought again
    expect(liqs).toHaveLength(4);
    expect(new Set(liqs.map(([engine]) => engine)).size).toBe(4);
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

  it('withdraws an exit refused because the position is gone with the exchange’s words and why', async () => {
    const { fake, feed, supervisor, botId } = await withFirstGrid();
    close = async () => {
      await supervisor.stop();
      await fake.close();
    };
    const liq = fake.book.liquidationPrice('ETHUSDT')!;
    fake.setPrice('ETHUSDT', 'future', liq.minus(1).toFixed(2));
    fake.setPrice('ETHUSDT', 'future', '2030');
    feed.setPrice('ETHUSDT', 'future', '2030');
    await eventually(
      async () => expect(await botRow(botId)).toMatchObject({ status: 'Stopped', stopReason: 'liquidated' }),
      20_000,
    );
    const sells = await handle.db
      .select({ status: botIntents.status, lastError: botIntents.lastError })
      .from(botIntents)
      .where(and(eq(botIntents.botId, botId), eq(botIntents.kind, 'SellLots')));
    expect(sells).toContainEqual({
      status: 'failed',
      lastError: 'ReduceOnly Order is rejected: the exchange holds no such position',
    });
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
