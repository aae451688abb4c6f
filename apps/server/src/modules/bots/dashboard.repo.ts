import { apiKeys, bots, type Db } from '@gridbot/db';
import { and, desc, inArray, sql } from 'drizzle-orm';
import { anyOf } from '../../lib/any-of.repo';
import { batchedRead, byKey, distinct } from '../../lib/batched-read';
import { type BotHead, type BotType, HOLDING_STATUSES, headColumns } from './bots.repo';

// The dashboard polls (botstatus, pichart, totalprofitbookdata: every user, every few seconds) as batched
// reads: the requests of many users that arrive while one statement runs share the next one, so a busy
// server sends a few statements where it sent one per request (each costs a round trip and a write to
// the database's socket, which were most of a poll's CPU). Each is one prepared statement per variant, made
// at its first use and kept by the process's `DashboardReads` (ProcessState.dashboard).

/** Live, Pause and Stopping bots of these types of the users in the array parameter `userIds`. */
const runningOfUsers = (types: readonly BotType[]) =>
  and(
    anyOf(bots.userId, 'userIds', 'uuid'),
    inArray(bots.status, [...HOLDING_STATUSES]),
    inArray(bots.botType, [...types]),
  );

const prepareHeadsWithTrades = (db: Db, type: BotType) =>
  db
    .select({
      ...headColumns,
      // Spelled out: in a one-table select drizzle leaves column names unqualified.
      trades24h: sql<number>`(select count(*)::int from bot_fills f where f.bot_id = bots.id and f.time_ms >= ${sql.placeholder('sinceMs')})`,
    })
    .from(bots)
    .where(runningOfUsers([type]))
    .orderBy(desc(bots.createdAt))
    .prepare(`running_bot_heads_trades_${type}`);

const headsWithTradesReads = (db: Db, type: BotType) => {
  const statement = prepareHeadsWithTrades(db, type);
  return batchedRead(async (items: readonly { userId: string; sinceMs: number }[]) => {
    // The requests of a batch came within milliseconds: their 24 h end at the latest of their clocks.
    const sinceMs = Math.max(...items.map((item) => item.sinceMs));
    const rows = await statement.execute({ userIds: distinct(items.map((item) => item.userId)), sinceMs });
    const rowsOf = byKey(rows, (row) => row.userId);
    return items.map((item) => rowsOf(item.userId));
  });
};

/** Σ of the Profit Books and Loss Books of all the bots of each user (running sums kept with their fills). */
const prepareBooks = (db: Db) =>
  db
    .select({
      userId: bots.userId,
      profit: sql<string>`sum(${bots.profitBook})`,
      loss: sql<string>`sum(${bots.lossBook})`,
    })
    .from(bots)
    .where(anyOf(bots.userId, 'userIds', 'uuid'))
    .groupBy(bots.userId)
    .prepare('profit_and_loss_books');

const prepareRunningHeads = (db: Db, types: readonly BotType[]) =>
  db
    .select(headColumns)
    .from(bots)
    .where(runningOfUsers(types))
    .orderBy(desc(bots.createdAt))
    .prepare(`running_bot_heads_${types.join('_')}`);

const profitAndRunningReads = (db: Db, types: readonly BotType[]) => {
  const books = prepareBooks(db);
  const heads = prepareRunningHeads(db, types);
  return batchedRead(async (userIds: readonly string[]) => {
    const asked = { userIds: distinct(userIds) };
    const [sums, running] = await Promise.all([books.execute(asked), heads.execute(asked)]);
    const sumsOf = byKey(sums, (row) => row.userId);
    const runningOf = byKey(running, (row) => row.userId);
    return userIds.map((userId) => {
      const [sum] = sumsOf(userId);
      return { profit: Number(sum?.profit ?? 0), loss: Number(sum?.loss ?? 0), running: runningOf(userId) };
    });
  });
};

const preparePie = (db: Db, type: BotType) =>
  db
    .select({
      userId: apiKeys.userId,
      apiKey: apiKeys.apiKey,
      secretSealed: apiKeys.secretSealed,
      exchange: apiKeys.exchange,
      passphraseSealed: apiKeys.passphraseSealed,
      bot: { symbol: bots.symbol, category: bots.category, investment: bots.investment },
    })
    .from(apiKeys)
    .leftJoin(
      bots,
      and(
        sql`${bots.userId} = ${apiKeys.userId}`,
        inArray(bots.status, ['Live', 'Pause', 'Stopping']),
        inArray(bots.botType, [type]),
      ),
    )
    .where(anyOf(apiKeys.userId, 'userIds', 'uuid'))
    .orderBy(desc(bots.createdAt))
    .prepare(`keys_and_running_${type}`);

const pieReads = (db: Db, type: BotType) => {
  const statement = preparePie(db, type);
  return batchedRead(async (userIds: readonly string[]) => {
    const rowsOf = byKey(await statement.execute({ userIds: distinct(userIds) }), (row) => row.userId);
    return userIds.map(rowsOf);
  });
};

/** The dashboard's shared reads of one process, each variant made at its first use. */
export class DashboardReads {
  private readonly reads = new Map<string, unknown>();

  constructor(private readonly db: Db) {}

  /**
   * The user's Live and Pause bots of one type, newest first, each with its fills since `sinceMs` (in a batch,
   * since the latest `sinceMs` of its requests: they differ by the milliseconds between their arrivals).
   */
  async listRunningBotHeadsWithTrades(
    userId: string,
    type: BotType,
    sinceMs: number,
  ): Promise<Array<BotHead & { trades24h: number }>> {
    const reads = this.variant(`heads-trades:${type}`, () => headsWithTradesReads(this.db, type));
    return reads.submit({ userId, sinceMs });
  }

  /**
   * Σ profitable and Σ losing sells of all the user's bots, and the user's Live and Pause bots of these types
   * (newest first, without snapshot and engine state): the dashboard totals.
   */
  async userProfitAndRunningBots(userId: string, types: readonly BotType[]) {
    const reads = this.variant(`profit-running:${types.join()}`, () => profitAndRunningReads(this.db, types));
    return reads.submit(userId);
  }

  /** The user's bound keys (sealed) and running bots of a type, newest first; undefined without keys. */
  async keysAndRunningBots(userId: string, type: BotType) {
    const rows = await this.variant(`pie:${type}`, () => pieReads(this.db, type)).submit(userId);
    const [first] = rows;
    if (!first) return undefined;
    return {
      keys: {
        apiKey: first.apiKey,
        secretSealed: first.secretSealed,
        exchange: first.exchange,
        passphraseSealed: first.passphraseSealed,
      },
      running: rows.flatMap((r) => (r.bot ? [r.bot] : [])),
    };
  }

  private variant<B>(key: string, make: () => B): B {
    let reads = this.reads.get(key) as B | undefined;
    if (!reads) {
      reads = make();
      this.reads.set(key, reads);
    }
    return reads;
  }
}
