import { isMissingCoinsHalt, type MissingLotsChoice, botMessages as m } from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import type { AccountConn } from '../../lib/account-lock';
import { HttpError } from '../../lib/http-error';
import { userExchange } from '../exchange';
import { queueAndAwait, sendBotCommand } from './bot-commands.service';
import { engineStateOf } from './bot-summary';
import * as repo from './bots.repo';
import { assertRebuyAffordable } from './missing-lots.service';

/** How a resume is worded for its kind (a grid bot or a cycle). */
export interface ResumeTexts {
  notHalted: string;
  resumed: string;
  notPausedForMissingCoins: string;
}

/** The answer of a resume: `resuming` (202) while the re-buy the user chose is still being filled. */
export interface ResumeAnswer {
  success: true;
  message: string;
  resuming?: true;
}

const BOT_TEXTS: ResumeTexts = {
  notHalted: m.botNotHalted,
  resumed: m.resumed,
  notPausedForMissingCoins: m.notPausedForMissingCoins,
};

/** Resumes a grid bot the runtime paused (see `resumeAfterHalt`). */
export function resumeBot(
  deps: Pick<AppDeps, 'db' | 'feed' | 'exchanges' | 'secrets' | 'botControl' | 'state'>,
  bot: repo.BotRow,
  missingLots?: MissingLotsChoice,
) {
  return resumeAfterHalt(deps, bot, BOT_TEXTS, missingLots);
}

/**
 * Resumes a grid bot its own pause price paused (engine `resumePaused`): it goes Live and buys grid 1 at the
 * market price at once, and its pause and restart prices are removed. A bot the runtime paused is resumed
 * by `resumeBot` first: its reason (keys, failing orders, missing coins) must be dealt with before it trades.
 */
export async function resumePausedBot(
  deps: Pick<AppDeps, 'db' | 'botControl' | 'state'>,
  bot: repo.BotRow,
): Promise<ResumeAnswer> {
  if (bot.haltReason && bot.status !== 'Stopped') throw new HttpError(400, m.resumePausedWhileHalted);
  if (bot.status !== 'Pause' || engineStateOf(bot).status !== 'Pause')
    throw new HttpError(400, m.notPricePaused);
  await sendBotCommand(deps, bot.id, { type: 'resume_paused' }, m.resumeFailed);
  return { success: true, message: m.resumedFromPause };
}

/**
 * Resumes a grid bot or a cycle the runtime paused (its keys were missing, its orders kept failing, or its
 * coins were sold outside the platform): it trades again from the state it stopped in, with a fresh count of
 * failures. The keys must be bound again first, or it would only be paused again. A pause over coins sold
 * outside the platform resumes only with the user's choice (`missingLots`: re-buy them or drop the missing
 * lots), which no other pause takes; a re-buy the free spot USDT cannot pay is refused before anything
 * changes. With a choice the answer comes once the bot has carried it out (a re-buy: once it is filled), so
 * the page the user returns to shows the bot as it now is.
 */
export async function resumeAfterHalt(
  deps: Pick<AppDeps, 'db' | 'feed' | 'exchanges' | 'secrets' | 'botControl' | 'state'>,
  bot: repo.BotRow,
  texts: ResumeTexts,
  missingLots?: MissingLotsChoice,
): Promise<ResumeAnswer> {
  if (!bot.haltReason || bot.status === 'Stopped') throw new HttpError(400, texts.notHalted);
  const missing = isMissingCoinsHalt(bot.haltReason);
  if (missing && missingLots === undefined) throw new HttpError(400, m.missingLotsChoiceNeeded);
  if (!missing && missingLots !== undefined) throw new HttpError(400, texts.notPausedForMissingCoins);
  if (missingLots === undefined) {
    await resumeHalted(deps, bot, texts);
    return { success: true, message: texts.resumed };
  }
  // The choice is queued once the keys are known good and before the bot is launched: the runner settles
  // the lots before it trades. A re-buy's check and its queued command, with the USDT it sets aside, are one
  // step of the account's lock (docs/security.md "One account, one queue"): a transfer or start after it
  // finds that USDT taken.
  const waited = await queueAndAwait(deps, bot.id, async () => {
    await userExchange(deps, bot.userId);
    const commandId = await deps.state.accounts.run(bot.userId, async (conn) => {
      const reserveUsdt = missingLots === 'rebuy' ? await assertRebuyAffordable(deps, bot, conn) : null;
      const id = await repo.queueCommand(conn, bot.id, 'missing_lots', {
        choice: missingLots,
        ...(reserveUsdt === null ? {} : { reserveUsdt }),
      });
      await clearHalt(conn, bot, texts);
      return id;
    });
    await deps.botControl.add(bot.id);
    return commandId;
  });
  switch (waited.status) {
    case 'done':
      return { success: true, message: texts.resumed };
    case 'applied':
      return { success: true, resuming: true, message: m.resumeUnderWay };
    case 'failed':
      // The runtime paused it again, with the reason (Binance did not answer, the re-buy was refused).
      throw new HttpError(400, waited.error ?? m.startError);
    case 'queued':
      throw new HttpError(503, m.resumeNoAnswer);
  }
}

/** Sets a paused bot or cycle trading again. */
async function resumeHalted(
  deps: Pick<AppDeps, 'db' | 'exchanges' | 'secrets' | 'botControl'>,
  bot: repo.BotRow,
  texts: ResumeTexts,
): Promise<void> {
  await userExchange(deps, bot.userId);
  await clearHalt(deps.db, bot, texts);
  await deps.botControl.add(bot.id);
}

/** Lifts the halt: the bot trades in the state it was in before it (Stopping stays Stopping). */
async function clearHalt(conn: AccountConn, bot: repo.BotRow, texts: ResumeTexts): Promise<void> {
  // The engine's own status (Live, or Pause above the pause price) is what the bot was before the halt; a
  // bot whose final sell is out stays Stopping.
  const engineStatus = (bot.engineState as { status?: string } | null)?.status;
  const status = bot.status === 'Stopping' ? 'Stopping' : engineStatus === 'Pause' ? 'Pause' : 'Live';
  if (!(await repo.clearHalt(conn, bot.id, status))) throw new HttpError(400, texts.notHalted);
}
