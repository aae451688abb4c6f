import { apiKeys, bots, type Db } from '@gridbot/db';
import { and, desc, inArray, sql } from 'drizzle-orm';
import { askersTable, batchedRead, perDb, selectedFrom } from '../../lib/batched-read';
import { type BotHead, type BotType, headColumns } from './bots.repo';

// The dashboard polls (botstatus, pichart, totalprofitbookdata: every user, every few seconds) as batched
// reads: the requests of many users that arrive while one statement runs share the next one, so a busy
// server sends a few statements where it sent one per request (each costs a round trip and a write to
// the database's socket, which were most of a poll's CPU). Each is one prepared statement per variant.
// Every table is joined LATERAL to the askers `a`, so PostgreSQL reads each user's rows by index: it
// guesses a JSON array of askers at 100 rows, and with a plain join it scanned all bots instead.

/** The asking user's Live and Pause bots of these types. */
const runningOfAsker = (types: readonly BotType[]) =>
  and(
    sql`${bots.userId} = a.user_id`,
    inArray(bots.status, ['Live', 'Pause']),
    inArray(bots.botType, [...types]),
  );

const prepareHeadsWithTrades = (db: Db, type: BotType) => {
  const h = db
    .select({
      ...headColumns,
      // Spelled out: in a one-table select drizzle leaves column names unqualified.
      trades24h:
        sql<number>`(select count(*)::int from bot_fills f where f.bot_id = bots.id and f.time_ms >= a.since_ms)`.as(
          'trades24h',
        ),
    })
    .from(bots)
    .where(runningOfAsker([type]))
    .as('h');
  return db
    .select({ asker: sql<number>`a.i`, ...selectedFrom(h, headColumns), trades24h: h.trades24h })
    .from(askersTable('user_id uuid, since_ms bigint'))
    .crossJoinLateral(h)
    .orderBy(desc(h.createdAt))
    .prepare(`running_bot_heads_trades_${type}`);
};

const headsWithTradesReads = (db: Db, type: BotType) =>
  perDb(db, `heads-trades:${type}`, () => {
    const statement = prepareHeadsWithTrades(db, type);
    return batchedRead(
      (askers) => statement.execute({ askers }),
      (item: { userId: string; sinceMs: number }) => ({ user_id: item.userId, since_ms: item.sinceMs }),
    );
  });

/** The user's Live and Pause bots of one type, newest first, each with its fills since `sinceMs`. */
export async function listRunningBotHeadsWithTrades(
  db: Db,
  userId: string,
  type: BotType,
  sinceMs: number,
): Promise<Array<BotHead & { trades24h: number }>> {
  return headsWithTradesReads(db, type).submit({ userId, sinceMs });
}

const prepareProfitAndRunning = (db: Db, types: readonly BotType[]) => {
  // Σ of the Profit Books and Loss Books of all the asking user's bots (running sums kept with their fills).
  const books = db
    .select({
      profit: sql<string>`coalesce(sum(${bots.profitBook}), 0)`.as('profit'),
      loss: sql<string>`coalesce(sum(${bots.lossBook}), 0)`.as('loss'),
    })
    .from(bots)
    .where(sql`${bots.userId} = a.user_id`)
    .as('pl');
  const h = db.select(headColumns).from(bots).where(runningOfAsker(types)).as('h');
  return db
    .select({
      asker: sql<number>`a.i`,
      profit: books.profit,
      loss: books.loss,
      bot: selectedFrom(h, headColumns),
    })
    .from(askersTable('user_id uuid'))
    .crossJoinLateral(books)
    .leftJoinLateral(h, sql`true`)
    .orderBy(desc(h.createdAt))
    .prepare(`profit_and_running_${types.join('_')}`);
};

const profitAndRunningReads = (db: Db, types: readonly BotType[]) =>
  perDb(db, `profit-running:${types.join()}`, () => {
    const statement = prepareProfitAndRunning(db, types);
    return batchedRead(
      (askers) => statement.execute({ askers }),
      (userId: string) => ({ user_id: userId }),
    );
  });

/**
 * Σ profitable and Σ losing sells of all the user's bots, and the user's Live and Pause bots of these types
 * (newest first, without snapshot and engine state): the dashboard totals in one read.
 */
export async function userProfitAndRunningBots(db: Db, userId: string, types: readonly BotType[]) {
  const rows = await profitAndRunningReads(db, types).submit(userId);
  return {
    profit: Number(rows[0]?.profit ?? 0),
    loss: Number(rows[0]?.loss ?? 0),
    running: rows.flatMap((r) => (r.bot ? [r.bot] : [])),
  };
}

const preparePie = (db: Db, type: BotType) => {
  const keys = db
    .select({ apiKey: apiKeys.apiKey, secretSealed: apiKeys.secretSealed })
    .from(apiKeys)
    .where(sql`${apiKeys.userId} = a.user_id`)
    .as('k');
  const h = db
    .select({
      symbol: bots.symbol,
      category: bots.category,
      investment: bots.investment,
      createdAt: bots.createdAt,
    })
    .from(bots)
    .where(runningOfAsker([type]))
    .as('h');
  return db
    .select({
      asker: sql<number>`a.i`,
      apiKey: keys.apiKey,
      secretSealed: keys.secretSealed,
      bot: { symbol: h.symbol, category: h.category, investment: h.investment },
    })
    .from(askersTable('user_id uuid'))
    .crossJoinLateral(keys)
    .leftJoinLateral(h, sql`true`)
    .orderBy(desc(h.createdAt))
    .prepare(`keys_and_running_${type}`);
};

const pieReads = (db: Db, type: BotType) =>
  perDb(db, `pie:${type}`, () => {
    const statement = preparePie(db, type);
    return batchedRead(
      (askers) => statement.execute({ askers }),
      (userId: string) => ({ user_id: userId }),
    );
  });

/** The user's bound keys (sealed) and running bots of a type, newest first; undefined without keys. */
export async function keysAndRunningBots(db: Db, userId: string, type: BotType) {
  const rows = await pieReads(db, type).submit(userId);
  const [first] = rows;
  if (!first) return undefined;
  return {
    keys: { apiKey: first.apiKey, secretSealed: first.secretSealed },
    running: rows.flatMap((r) => (r.bot ? [r.bot] : [])),
  };
}
