/**
 * The prices a Multigrid or Scalping bot acts at next, read from its state with the same rules `step()` applies
 * (docs/trading-rules.md §2.2, §2.3), so a chart of them shows where the engine will buy and sell.
 */
import type { BotLevels } from '@gridbot/shared';
import { downLevel, upLevel } from './compare';
import type { GridBotState } from './grid-bot.state';
import { nextGrid } from './grid-rules';

export function botLevels(state: GridBotState): BotLevels {
  const { settings } = state;
  return {
    nextBuy: nextBuy(state),
    takeProfits: takeProfits(state),
    pause: settings.pausePrice,
    restart: settings.restartPrice,
    stoploss: settings.stoplossPrice,
  };
}

/**
 * §2.2 step 4 / §2.3: grid k arms (Multigrid) or buys (Scalping) at the newest lot's price × (1 − buy[k]/100).
 * None while the bot is not Live (it buys nothing), when no grid may buy (all bought, overbuy protection),
 * and on an empty stack, where grid 1 buys at market at whatever the price is.
 */
function nextBuy(state: GridBotState): BotLevels['nextBuy'] {
  if (state.status !== 'Live') return null;
  const newest = state.lots.at(-1);
  const k = nextGrid(state, state.lots);
  if (newest === undefined || k <= 1) return null;
  return { grid: k, price: downLevel(newest.price, state.params.buyPct[k - 1] ?? 0) };
}

/**
 * Multigrid: each lot arms its trailing sell at its price × (1 + tp/100), tp being the one recorded on the lot when
 * it was bought. Scalping: everything sells at the average entry (Σ quote / Σ qty) × (1 + tp/100).
 */
function takeProfits(state: GridBotState): BotLevels['takeProfits'] {
  const params = state.params;
  if (params.type === 'scalping') {
    const { openQty, openQuote } = state.account;
    if (!(openQty > 0) || state.lots.length === 0) return [];
    return [{ grid: null, price: upLevel(openQuote / openQty, params.tpPct), armed: false }];
  }
  return state.lots.map((lot) => ({
    grid: lot.grid,
    price: upLevel(lot.price, lot.tpPct),
    armed: lot.armed,
  }));
}
