import { botFills, type Db } from '@gridbot/db';
import { PaperExchange } from '@gridbot/exchange';
import { ManualFeed } from '@gridbot/exchange/testing';
import { asc, eq } from 'drizzle-orm';
import { SecretBox } from '../lib/secret-box';
import { paperGateway } from '../modules/exchange/exchange-gateway';
import { SqlPaperStore } from '../modules/paper/sql-paper-store.repo';
import type { SupervisorDeps } from '../worker/bot-supervisor';
import { insertUserWithKeys } from './bot-fixtures';
import { insertEthGrid } from './range-fixtures';
import { testSupervisor } from './test-supervisor';

/**
 * The spot range grid of `insertEthGrid` (1000 USDT, or `investment`) on the paper exchange, as the paper range
 * runtime tests set it up: the feed at 2000 and the paper exchange on the test database, started; a user of
 * its own (keys sealed with a key of `keySeed`), the grid's row. `exchange` is the user's paper account;
 * `supervisor` builds a supervisor whose every user trades on the paper exchange, with the clock and no log,
 * `deps` adding to or overriding that (short reload delays, metrics, a gateway that refuses). `move` sets the
 * feed's price; `openPrices` are the prices of the user's open ETHUSDT orders, sorted; `fillRows` is the bot's
 * order book in the order it was first booked. The test stops its supervisors and then `paper`.
 */
export async function ethGridOnPaper(db: Db, options: { keySeed: number; investment?: number }) {
  const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
  const paper = new PaperExchange({ store: new SqlPaperStore(db), feed });
  await paper.start();
  const userId = await insertUserWithKeys(db, SecretBox.fromKey(Buffer.alloc(32, options.keySeed)));
  const { botId } = await insertEthGrid(db, userId, options.investment);
  const exchange = paper.forUser(userId);
  return {
    paper,
    exchange,
    feed,
    userId,
    botId,
    supervisor: (deps: Partial<SupervisorDeps> = {}) => testSupervisor(db, feed, paperGateway(paper), deps),
    move(price: string) {
      feed.setPrice('ETHUSDT', 'spot', price);
    },
    openPrices: async () => (await exchange.openOrders('spot', 'ETHUSDT')).map((o) => o.price).sort(),
    fillRows: () => db.select().from(botFills).where(eq(botFills.botId, botId)).orderBy(asc(botFills.id)),
  };
}
