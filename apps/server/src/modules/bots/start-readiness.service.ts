import {
  botMessages,
  startReadinessMessages as m,
  money,
  platformMessages,
  type StartBlocker,
  type StartReadiness,
  type StrategyParams,
  takeProfitFeeWarning,
} from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { platformDepsOf } from '../../config/platform-runtime';
import { platformCredit } from '../credit';
import { isPaperVenue, loadUserKeys } from '../exchange';
import { findOwnStrategy, findSystemStrategy } from '../strategies';
import * as repo from './bots.repo';
import { freeUsdt } from './start-bot.service';

export interface ReadinessQuery {
  category: 'Spot' | 'Future';
  pair?: string | undefined;
  botType?: 'multigrid' | 'scalping' | undefined;
  strategy?: string | undefined;
}

/** The take-profits of a stored strategy, one per grid (Scalping: its single value). */
export function takeProfitsOf(params: StrategyParams): number[] {
  const tp = params.takeprofit_percentage;
  return Array.isArray(tp) ? tp : [tp];
}

/**
 * What would refuse a start with these choices, checked the way the start itself checks (docs/spec/01-core-screens.md Start New
 * Bot): keys on Binance, the profit limit, a bot already on the pair, no free USDT in the wallet the bot
 * trades from. The amount is the form's own check against `freeUsdt`.
 */
export async function startReadiness(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'exchanges' | 'secrets' | 'state'>,
  userId: string,
  q: ReadinessQuery,
): Promise<StartReadiness> {
  const blockers: StartBlocker[] = [];
  const market = q.category === 'Future' ? 'future' : 'spot';
  const keys = await loadUserKeys(deps, userId);
  let free: string | null = null;
  if (!keys) {
    blockers.push({
      code: 'keys',
      message: m.keys,
      link: { to: '/api-setting', label: 'Go to API Setting' },
    });
  } else {
    try {
      free = (await freeUsdt(deps, userId, market)).free;
    } catch {
      // Keys the exchange refuses: the start itself will say so; the form shows no free figure meanwhile.
      free = null;
    }
  }
  if (!(await platformCredit.canStart(platformDepsOf(deps), userId))) {
    blockers.push({
      code: 'profit_limit',
      message: platformMessages.profitLimitReached,
      link: { to: '/subscription', label: 'Go to Subscription' },
    });
  }
  if (q.pair && (await repo.runningBotOn(deps.db, userId, q.pair, q.category))) {
    blockers.push({ code: 'pair_taken', message: botMessages.alreadyRunning(q.pair) });
  }
  if (free !== null && money(free).lte(0)) {
    blockers.push(
      market === 'future'
        ? { code: 'futures_empty', message: m.futuresEmpty, link: { to: '/mywallet', label: 'Transfer' } }
        : {
            code: 'no_free_balance',
            message: m.noFreeBalance('spot'),
            link: { to: '/mywallet', label: 'Wallet' },
          },
    );
  }
  let feeWarning: string | null = null;
  if (q.botType && q.strategy) {
    const row =
      (await findOwnStrategy(deps.db, userId, q.botType, q.strategy)) ??
      (await findSystemStrategy(deps.db, q.botType, q.strategy));
    if (row) feeWarning = takeProfitFeeWarning(takeProfitsOf(row.params as StrategyParams), market);
  }
  // The exchange the bot would trade on: the bound key's (Binance without a key, as API Setting's default).
  const venue = isPaperVenue(deps) ? 'paper' : (keys?.exchange ?? 'binance');
  return { venue, freeUsdt: free, blockers, feeWarning };
}
