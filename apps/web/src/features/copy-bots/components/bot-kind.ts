import type { TopBot } from '@gridbot/shared';
import { formatPrice } from '../../../lib/format';

/** The kind of a top bot in one word, as its badge shows it. */
export function kindLabel(bot: Pick<TopBot, 'botType'>): string {
  return bot.botType === 'range' ? 'Grid' : bot.botType === 'scalping' ? 'Scalping' : 'Multigrid';
}

/**
 * A top bot's strategy in words: a range grid's range, grid count and spacing ("1,900–2,100 · 4 grids ·
 * Arithmetic", docs/trading-rules.md §2.6) from its parameters; any other bot's shape as the server names it.
 */
export function shapeText(bot: Pick<TopBot, 'botType' | 'shape' | 'strategy'>): string {
  if (bot.botType !== 'range') return bot.shape;
  const s = bot.strategy ?? {};
  const lower = Number(s.lower);
  const upper = Number(s.upper);
  const grids = Number(s.grids);
  if (!(lower > 0 && upper > lower && grids > 0)) return bot.shape;
  const mode = s.mode === 'geometric' ? 'Geometric' : 'Arithmetic';
  return `${formatPrice(lower)}–${formatPrice(upper)} · ${grids} grids · ${mode}`;
}
