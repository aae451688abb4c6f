import { botFills, bots, type Db } from '@gridbot/db';
import { FakeBinanceServer, ManualFeed } from '@gridbot/exchange/testing';
import type { MarketKind, RangeStrategy } from '@gridbot/shared';
import { asc, eq, ne } from 'drizzle-orm';
import { SecretBox } from '../lib/secret-box';
import { binanceClientOf } from './binance-client';
import { insertUserWithKeys } from './bot-fixtures';
import { insertRangeBot } from './range-fixtures';

/**
 * A range grid on ETHUSDT that trades on the Binance double, as the range runtime tests set it up: the double
 * and the feed at 2000, a user of its own (keys sealed with a key of `keySeed`), the grid's row. `soleBot`
 * stops every other bot of the test database first, where the one double is every user's exchange. `move`
 * sets the double's price and then the feed's; `fillRows` is the bot's order book in the order it was first
 * booked (an order filled in parts keeps its first row).
 */
export async function ethGridOnBinance(
  db: Db,
  options: {
    market: MarketKind;
    params: RangeStrategy;
    investment: number;
    keySeed: number;
    soleBot?: boolean;
  },
) {
  const { market } = options;
  const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
  fake.setPrice('ETHUSDT', market, '2000');
  const exchange = binanceClientOf(fake);
  const feed = new ManualFeed({ [`${market}:ETHUSDT`]: '2000' });
  const userId = await insertUserWithKeys(db, SecretBox.fromKey(Buffer.alloc(32, options.keySeed)));
  const { botId } = await insertRangeBot(db, userId, {
    symbol: 'ETHUSDT',
    market,
    params: options.params,
    investment: options.investment,
  });
  if (options.soleBot) await db.update(bots).set({ status: 'Stopped' }).where(ne(bots.id, botId));
  return {
    fake,
    exchange,
    feed,
    userId,
    botId,
    move(price: string, volume?: string) {
      fake.setPrice('ETHUSDT', market, price, volume);
      feed.setPrice('ETHUSDT', market, price);
    },
    fillRows: () => db.select().from(botFills).where(eq(botFills.botId, botId)).orderBy(asc(botFills.id)),
  };
}
