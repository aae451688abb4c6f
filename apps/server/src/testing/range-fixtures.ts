import { bots, type Db } from '@gridbot/db';
import { compileRules, createRange, type RangeState } from '@gridbot/engine';
import { findMaintBrackets, getMarketRules, type MarketKind, type RangeStrategy } from '@gridbot/shared';

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
