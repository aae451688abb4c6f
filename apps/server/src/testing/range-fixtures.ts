import { bots, type Db } from '@gridbot/db';
import { compileRules, createRange, type RangeState } from '@gridbot/engine';
import {
  findMaintBrackets,
  getMarketRules,
  type MarketKind,
  type RangeStrategy,
  rangeStrategySchema,
} from '@gridbot/shared';
import type { BotSupervisor } from '../worker/bot-supervisor';

/** A Live range grid row waiting for its first tick, as POST /api/startgrid writes it. */
export async function insertRangeBot(
  db: Db,
  userId: string,
  options: {
    symbol: string;
    market: MarketKind;
    params: RangeStrategy;
    investment: number;
    startTimeMs?: number;
  },
): Promise<{ botId: string; state: RangeState }> {
  const { symbol, market, params, investment } = options;
  const state = createRange({
    params,
    investment,
    market,
    rules: compileRules(getMarketRules(symbol, market)),
    startTimeMs: options.startTimeMs ?? Date.now(),
    brackets: market === 'future' ? (findMaintBrackets(symbol) ?? null) : null,
  });
  const [row] = await db
    .insert(bots)
    .values({
      userId,
      botType: 'range',
      strategyName: params.name ?? '',
      strategySnapshot: params,
      symbol,
      category: market === 'future' ? 'Future' : 'Spot',
      investment: String(investment),
      leverage: market === 'future' ? params.leverage : 1,
      engineState: state as unknown as Record<string, unknown>,
    })
    .returning({ id: bots.id });
  return { botId: row!.id, state };
}

/**
 * The spot grid the range runtime tests trade: ETHUSDT, 1000 USDT (or `investment`) on 1900–2100 in 4 levels;
 * with 1000, started at 2000, q = floor(1000 / (1900 + 1950 + 2000 × 2) / 0.0001) × 0.0001 = 0.1273.
 */
export function insertEthGrid(
  db: Db,
  userId: string,
  investment = 1000,
): Promise<{ botId: string; state: RangeState }> {
  const params = rangeStrategySchema.parse({ type: 'range', lower: 1900, upper: 2100, grids: 4 });
  return insertRangeBot(db, userId, { symbol: 'ETHUSDT', market: 'spot', params, investment });
}

/** The grid's runner is done with what it had to do (what it queued before this call). */
export const settledRange = (s: BotSupervisor, botId: string) => s.rangeRunner(botId)?.serial(async () => {});
