import { apiKeys, bots, type Db, sessions, users } from '@gridbot/db';
import { type BotSettings, createCycle, createGridBot, type GridParams } from '@gridbot/engine';
import { findMaintBrackets, type MarketKind, SYMBOLS } from '@gridbot/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { SecretBox } from '../lib/secret-box';
import { newSecretToken, sha256 } from '../lib/tokens';

let n = 0;

/** A user with bound keys, straight in the database (runtime tests do not need the sign-up flow). */
export async function insertUserWithKeys(db: Db, secrets: SecretBox): Promise<string> {
  n += 1;
  const tag = `${Date.now().toString(36)}${n}`;
  const [row] = await db
    .insert(users)
    .values({
      email: `bot${tag}@example.com`,
      username: `bot${tag}`,
      contactNo: '5551234',
      passwordHash: 'x',
      userCode: `B${tag}`.slice(0, 12),
    })
    .returning({ id: users.id });
  await db.insert(apiKeys).values({ userId: row!.id, apiKey: 'k', secretSealed: secrets.seal('s') });
  return row!.id;
}

/** A bearer token of the user, straight in the database (for calls to a server started by a test). */
export async function insertSession(db: Db, userId: string): Promise<string> {
  const token = newSecretToken();
  await db
    .insert(sessions)
    .values({ userId, tokenHash: sha256(token), expiresAt: new Date(Date.now() + 86_400_000) });
  return token;
}

/**
 * A three-grid Multigrid strategy with easy numbers: 1 % steps, 1 % take-profit, no trailing. The buy lists
 * are per grid, grid 1's entry unused (it buys at market): a grid without an entry would buy at 0 %, at once.
 */
export const simpleMultigrid: GridParams = {
  type: 'multigrid',
  name: 'Simple',
  grids: 3,
  alloc: [0.4, 0.3, 0.3],
  buyPct: [0, 1, 1],
  buyUpPct: [0, 0, 0],
  tpPct: [1, 1, 1],
  tpDownPct: [0, 0, 0],
};

/**
 * ETHUSDT, or the first pair the user runs nothing on: one running bot per user, pair and category is a
 * unique index, so a user's second default bot goes elsewhere.
 */
async function freePair(db: Db, userId: string, category: 'Spot' | 'Future'): Promise<string> {
  const taken = await db
    .select({ symbol: bots.symbol })
    .from(bots)
    .where(
      and(
        eq(bots.userId, userId),
        eq(bots.category, category),
        inArray(bots.status, ['Live', 'Pause', 'Stopping']),
      ),
    );
  const used = new Set(taken.map((r) => r.symbol));
  const pair = ['ETHUSDT', ...SYMBOLS].find((s) => !used.has(s));
  if (!pair) throw new Error('the user runs a bot on every pair already');
  return pair;
}

/** A Live bot row with a fresh engine state, as the start endpoint writes it. */
export async function insertBot(
  db: Db,
  userId: string,
  options: {
    symbol?: string;
    market?: MarketKind;
    investment?: number;
    params?: GridParams;
    leverage?: number;
    /** Stoploss, pause, restart, profit book… as the start form sets them. */
    settings?: Partial<BotSettings>;
  } = {},
): Promise<string> {
  const params = options.params ?? simpleMultigrid;
  const market = options.market ?? 'spot';
  const category = market === 'future' ? 'Future' : 'Spot';
  const investment = options.investment ?? 1000;
  const symbol = options.symbol ?? (await freePair(db, userId, category));
  const state = createGridBot({
    params,
    investment,
    market,
    leverage: options.leverage ?? 1,
    startTimeMs: Date.now(),
    settings: options.settings,
    // As the start endpoint does: the symbol's published leverage brackets (docs/trading-rules.md §2.2).
    maintBrackets: findMaintBrackets(symbol),
  });
  const [row] = await db
    .insert(bots)
    .values({
      userId,
      botType: params.type,
      strategyName: params.name,
      strategySnapshot: {} as never,
      symbol,
      category,
      investment: String(investment),
      leverage: options.leverage ?? 1,
      engineState: state as unknown as Record<string, unknown>,
    })
    .returning({ id: bots.id });
  return row!.id;
}

/** A Live cycle row with a fresh engine state, as the start cycle endpoint writes it. */
export async function insertCycle(
  db: Db,
  userId: string,
  params: {
    symbol: string;
    buyPrice: number;
    sellPrice: number;
    stopLoss?: number | null;
    cycles: number;
    amount: number;
  },
): Promise<string> {
  const cycle = {
    buyPrice: params.buyPrice,
    sellPrice: params.sellPrice,
    stopLoss: params.stopLoss ?? null,
    cycles: params.cycles,
    amount: params.amount,
  };
  const state = createCycle({ params: cycle, market: 'spot', startTimeMs: Date.now() });
  const [row] = await db
    .insert(bots)
    .values({
      userId,
      botType: 'cycle',
      strategyName: '',
      strategySnapshot: {
        buyPrice: cycle.buyPrice,
        sellPrice: cycle.sellPrice,
        stopLoss: cycle.stopLoss,
        cycles: cycle.cycles,
      },
      symbol: params.symbol,
      category: 'Spot',
      investment: String(params.amount),
      engineState: state as unknown as Record<string, unknown>,
    })
    .returning({ id: bots.id });
  return row!.id;
}
