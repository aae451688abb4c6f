import { isMissingCoinsHalt, type MissingLotsChoice, botMessages as m } from '@gridbot/shared';
import type { AppDeps } from '../../deps';
import { HttpError } from '../../lib/http-error';
import { userExchange } from '../wallet/user-exchange';
import * as repo from './bots.repo';

/**
 * Resumes a bot the runtime paused (its keys were missing, or its orders kept failing): it trades again from
 * the state it stopped in, with a fresh count of failures. The keys must be bound again first, or it would
 * only be paused again. A bot paused over coins sold outside the platform resumes only with the user's
 * choice (`missingLots`: re-buy them or drop the missing lots), which no other pause takes.
 */
export async function resumeBot(deps: AppDeps, bot: repo.BotRow, missingLots?: MissingLotsChoice) {
  const missing = isMissingCoinsHalt(bot.haltReason);
  if (missing && missingLots === undefined) throw new HttpError(400, m.missingLotsChoiceNeeded);
  if (!missing && missingLots !== undefined) throw new HttpError(400, m.notPausedForMissingCoins);
  // Queued once the keys are known good and before the bot is launched: the runner settles the lots before
  // it trades.
  const settleLots = async () => {
    if (missingLots !== undefined)
      await repo.queueCommand(deps.db, bot.id, 'missing_lots', { choice: missingLots });
  };
  return resumeHalted(deps, bot, { notHalted: m.botNotHalted, resumed: m.resumed }, settleLots);
}

/** Resumes a grid bot or a cycle the runtime paused; `texts` word the refusal and the success for its kind. */
export async function resumeHalted(
  deps: AppDeps,
  bot: repo.BotRow,
  texts: { notHalted: string; resumed: string },
  /** Runs once the keys are found, before the bot is set trading again. */
  beforeResume?: () => Promise<void>,
): Promise<{ success: true; message: string }> {
  if (!bot.haltReason || bot.status === 'Stopped') throw new HttpError(400, texts.notHalted);
  await userExchange(deps, bot.userId);
  await beforeResume?.();
  // The engine's own status (Live, or Pause above the pause price) is what the bot was before the halt; a
  // bot whose final sell is out stays Stopping.
  const engineStatus = (bot.engineState as { status?: string } | null)?.status;
  const status = bot.status === 'Stopping' ? 'Stopping' : engineStatus === 'Pause' ? 'Pause' : 'Live';
  if (!(await repo.clearHalt(deps.db, bot.id, status))) throw new HttpError(400, texts.notHalted);
  await deps.botControl.add(bot.id);
  return { success: true, message: texts.resumed };
}
