import { botMessages as m } from '@gridbot/shared';
import type { AppDeps } from '../../deps';
import { HttpError } from '../../lib/http-error';
import type { BotCommand } from '../../worker/bot-commands';
import { queueForRunningGridBots } from '../../worker/bot-repo';
import * as repo from './bots.repo';

const WAIT_MS = 15_000;

/**
 * Queues a command for a running bot in the database (the source of truth), wakes its worker and waits
 * until the worker has applied it, so the answer the user sees is what happened.
 */
export async function sendBotCommand(deps: AppDeps, botId: string, command: BotCommand, failure: string) {
  const { type, ...payload } = command;
  const id = await repo.queueCommand(deps.db, botId, type, payload);
  await deps.botControl.notify(botId);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const row = await repo.commandStatus(deps.db, id);
    if (row?.status === 'done') return;
    if (row?.status === 'failed') throw new HttpError(400, failure);
    if (Date.now() > deadline)
      throw new HttpError(
        503,
        `${failure}: the bot did not answer in time; it will apply the change when it does.`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The user's running bot of this type, or 404 (another user's bot reads as missing). */
export async function runningBotOf(deps: AppDeps, userId: string, botId: string, type: repo.BotType) {
  const bot = await repo.findUserBot(deps.db, userId, botId, type);
  if (!bot) throw new HttpError(404, m.botNotFound);
  return bot;
}

export function assertRunning(bot: repo.BotRow) {
  if (bot.status === 'Stopped') throw new HttpError(400, m.botNotRunning);
}

/** After a subscription: every running grid bot of the user may open new grid-1 cycles again. */
export async function allowNewCycles(deps: AppDeps, userId: string) {
  const botIds = await queueForRunningGridBots(deps.db, userId, 'new_cycles', { allowed: true });
  for (const botId of botIds) await deps.botControl.notify(botId);
}
