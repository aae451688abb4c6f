import { apiKeys, botCommands, bots, type Db } from '@gridbot/db';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { anyOf } from '../../lib/any-of.repo';
import { batchedRead, byKey, distinct } from '../../lib/batched-read';
import {
  type BotHead,
  type BotType,
  HOLDING_STATUSES,
  headColumns,
  isPendingRebuy,
  rebuyReserveColumns,
} from './bots.repo';

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

/** The user's stopped range grids with their state versions (a stopped state is valued once per version). */
const prepareStoppedRanges = (db: Db) =>
  db
    .select({ userId: bots.userId, id: bots.id, stateVersion: bots.stateVersion })
    .from(bots)
    .where(and(anyOf(bots.userId, 'userIds', 'uuid'), eq(bots.status, 'Stopped'), eq(bots.botType, 'range')))
    .prepare('stopped_range_heads');

/** USDT the users' pending re-buys hold (bots.repo.ts `pendingRebuyReserves`). */
const prepareRebuys = (db: Db) =>
  db
    .select(rebuyReserveColumns)
    .from(botCommands)
    .innerJoin(bots, eq(bots.id, botCommands.botId))
    .where(and(anyOf(bots.userId, 'userIds', 'uuid'), isPendingRebuy))
    .prepare('pending_rebuy_reserves');

/** A batched read of one statement whose rows carry their `userId`: each user gets their rows, in order. */
const rowsOfUsers = <Row extends { userId: string }>(statement: {
  execute: (placeholders: { userIds: string[] }) => Promise<Row[]>;
}) =>
  batchedRead(async (userIds: readonly string[]) => {
    const rowsOf = byKey(await statement.execute({ userIds: distinct(userIds) }), (row) => row.userId);
    return userIds.map(rowsOf);
  });

const booksReads = (db: Db) => {
  const statement = prepareBooks(db);
  return batchedRead(async (userIds: readonly string[]) => {
    const sumsOf = byKey(await statement.execute({ userIds: distinct(userIds) }), (row) => row.userId);
    return userIds.map((userId) => {
      const [sum] = sumsOf(userId);
      return { profit: Number(sum?.profit ?? 0), loss: Number(sum?.loss ?? 0) };
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

const pieReads = (db: Db, type: BotType) => rowsOfUsers(preparePie(db, type));

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
    const [books, running] = await Promise.all([
      this.variant('books', () => booksReads(this.db)).submit(userId),
      this.runningBots(userId, types),
    ]);
    return { ...books, running };
  }

  /** The user's Live, Pause and Stopping bots of these types, newest first, without their engine states. */
  async runningBots(userId: string, types: readonly BotType[]) {
    const reads = this.variant(`running:${types.join()}`, () =>
      rowsOfUsers(prepareRunningHeads(this.db, types)),
    );
    return reads.submit(userId);
  }

  /** The user's stopped range grids with their state versions. */
  async stoppedRangeGrids(userId: string) {
    return this.variant('stopped-ranges', () => rowsOfUsers(prepareStoppedRanges(this.db))).submit(userId);
  }

  /** USDT that re-buys resumes chose still hold, per bot of the user (`pendingRebuyReserves`). */
  async pendingRebuyReserves(userId: string) {
    return this.variant('rebuys', () => rowsOfUsers(prepareRebuys(this.db))).submit(userId);
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
