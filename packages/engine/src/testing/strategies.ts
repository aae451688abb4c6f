import type { MaintBracket } from '@gridbot/shared';
import type { BotSettings } from '../core/grid-bot.state';
import { createGridBot, type GridBotState } from '../core/grid-bot.state';
import { strategyFrom } from '../strategies/parse-strategy';
import type { MarketKind } from '../types';

export interface GridShape {
  alloc: number[];
  buy?: number[];
  buyUp?: number[];
  tp?: number[];
  tpDown?: number[];
}

/** A Multigrid bot from per-grid lists (stored format underneath, so the parser is exercised too). */
export function multigridBot(
  shape: GridShape,
  opts: {
    investment?: number;
    market?: MarketKind;
    leverage?: number;
    maintBrackets?: readonly MaintBracket[];
    settings?: Partial<BotSettings>;
  } = {},
): GridBotState {
  const n = shape.alloc.length;
  const params = strategyFrom({
    type: 'multigrid',
    strategy_name: 'test',
    No_of_order: n,
    allotted_amount_percentage_per_order: shape.alloc,
    buy_percentage: shape.buy ?? Array(n - 1).fill(2),
    buy_percentage_up: shape.buyUp ?? Array(n - 1).fill(0),
    takeprofit_percentage: shape.tp ?? Array(n).fill(2),
    takeprofit_percentage_down: shape.tpDown ?? Array(n).fill(0),
  });
  return createGridBot({
    params,
    investment: opts.investment ?? 1000,
    market: opts.market ?? 'spot',
    leverage: opts.leverage ?? 1,
    maintBrackets: opts.maintBrackets,
    startTimeMs: 1_700_000_000_000,
    settings: opts.settings,
  });
}

export function scalpingBot(
  shape: { alloc: number[]; buy?: number[]; tp: number },
  opts: { investment?: number; settings?: Partial<BotSettings> } = {},
): GridBotState {
  const n = shape.alloc.length;
  const params = strategyFrom({
    type: 'scalping',
    strategy_name: 'scalp',
    No_of_order: n,
    allotted_amount_percentage_per_order: shape.alloc,
    buy_percentage: shape.buy ?? Array(n - 1).fill(2),
    takeprofit_percentage: shape.tp,
  });
  return createGridBot({
    params,
    investment: opts.investment ?? 1000,
    market: 'spot',
    startTimeMs: 1_700_000_000_000,
    settings: opts.settings,
  });
}
