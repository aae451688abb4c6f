import type { CycleState } from '@gridbot/engine';
import type { LiveCycle } from '@gridbot/shared';
import type { BotRow } from '../bots';
import { engineStateOf, statsAt } from '../bots';

const DAY_MS = 86_400_000;
const round = (value: number, digits = 8) => Number(value.toFixed(digits));

export function cycleState(row: BotRow): CycleState {
  const state = engineStateOf(row);
  if (state.kind !== 'cycle') throw new Error(`bot ${row.id} is not a cycle`);
  return state;
}

/** Holding from the moment the buy filled until the sell fills (the engine's Selling included). */
export function isHolding(state: CycleState): boolean {
  return state.lots.length > 0 || state.status === 'Holding' || state.status === 'Selling';
}

/** A running cycle as `GET /api/livecycles` shows it (docs/spec/02-bots-wallet-account.md §3 Cycle). */
export function toLiveCycle(row: BotRow, price: number, nowMs: number, sparkline: number[]): LiveCycle {
  const state = cycleState(row);
  const s = statsAt(row, price, nowMs);
  const holding = isHolding(state);
  return {
    id: row.id,
    pair: row.symbol,
    category: row.category,
    leverage: row.leverage,
    status: row.status === 'Pause' || row.status === 'Stopping' ? row.status : 'Live',
    phase: holding ? 'Holding' : 'WaitBuy',
    haltReason: row.haltReason,
    liveprice: price,
    runtime: round(s.runtimeMs / DAY_MS, 2),
    investment: round(state.params.amount),
    profit: round(s.bookedProfit),
    cycles_completed: state.cyclesCompleted,
    no_of_cycle: state.params.cycles,
    last_bought_price: holding ? s.lastBuyingPrice : null,
    buy_price: state.params.buyPrice,
    sell_price: state.params.sellPrice,
    stop_loss: state.params.stopLoss,
    sparklineData: sparkline,
    createdAt: row.createdAt.toISOString(),
  };
}
