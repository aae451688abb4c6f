/**
 * Spot fees on the paper exchange as on Binance (docs/trading-rules.md §3 "fills come with their fees"): a buy's fee
 * is taken from the coin bought, not added to the USDT spent, so a bot started with the whole balance buys every
 * grid.
 */
import { botFills, bots, createTestDb, type DbHandle } from '@gridbot/db';
import type { GridBotState } from '@gridbot/engine';
import { PaperExchange } from '@gridbot/exchange';
import { eventually, ManualFeed } from '@gridbot/exchange/testing';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { paperGateway } from '../modules/exchange/exchange-gateway';
import { SqlPaperStore } from '../modules/paper/sql-paper-store.repo';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { BotSupervisor } from './bot-supervisor';

let handle: DbHandle;

beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

describe('paper spot fees', () => {
  it('lets a bot given the whole balance buy every grid: the fee comes out of the coin bought', async () => {
    const feed = new ManualFeed();
    const paper = new PaperExchange({
      store: new SqlPaperStore(handle.db),
      feed,
      startFunds: [{ wallet: 'spot', asset: 'USDT', amount: '1000' }],
    });
    await paper.start();
    const supervisor = new BotSupervisor({
      db: handle.db,
      feed,
      exchanges: paperGateway(paper),
      loadKeys: async () => ({ apiKey: 'k', secret: 's' }),
      now: () => Date.now(),
      log: () => {},
    });
    const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 6)));
    // 1000 USDT, all of it: grids of 400, 300 and 300 USDT, 1 % apart.
    const botId = await insertBot(handle.db, userId, { symbol: 'ETHUSDT', investment: 1000 });
    await supervisor.start();
    const fills = () =>
      handle.db.select().from(botFills).where(eq(botFills.botId, botId)).orderBy(asc(botFills.seq));

    feed.setPrice('ETHUSDT', 'spot', '2000');
    await eventually(async () => expect(await fills()).toHaveLength(1));
    feed.setPrice('ETHUSDT', 'spot', '1980');
    await eventually(async () => expect(await fills()).toHaveLength(2));
    // 1960.2 = 1980 × 0.99: grid 3 spends floor(300 / 1960.2, 0.0001) = 0.153 × 1960.2 = 299.9106 USDT. With a
    // USDT fee on top the three grids would need 999.8806 + 0.9999 > 1000 and the last buy would be refused.
    feed.setPrice('ETHUSDT', 'spot', '1960.2');
    await eventually(async () => expect(await fills()).toHaveLength(3));
    await supervisor.stop();
    await paper.stop();

    const rows = await fills();
    expect(rows.map((f) => [f.side, f.grid, f.qty, f.quote])).toEqual([
      ['buy', 1, '0.2', '400'],
      ['buy', 2, '0.1515', '299.97'],
      ['buy', 3, '0.153', '299.9106'],
    ]);
    // Fees in USDT on the Order Book: 0.1 % of the coin bought, worth 0.1 % of the quote.
    expect(rows.map((f) => Number(f.fee))).toEqual([0.4, 0.29997, 0.2999106]);
    // The account paid the quotes only and holds what the bot's lots hold: bought − fee.
    const balances = await paper.forUser(userId).balances('spot');
    const free = (asset: string) => balances.find((b) => b.asset === asset)?.free;
    expect(free('USDT')).toBe('0.1194');
    expect(free('ETH')).toBe('0.5039955');
    const [bot] = await handle.db.select().from(bots).where(eq(bots.id, botId));
    const lots = (bot!.engineState as unknown as GridBotState).lots;
    expect(lots.map((l) => l.qty)).toEqual([0.1998, 0.1513485, 0.152847]);
    expect(bot!.haltReason).toBeNull();
  });
});
