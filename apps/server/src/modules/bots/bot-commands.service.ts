import { botMessages as m } from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import type { ProcessState } from '../../app/process-state';
import { HttpError } from '../../lib/http-error';
import type { BotCommand } from './bot-command';
import * as repo from './bots.repo';
import { queueForRunningGridBots } from './bots.repo';

const WAIT_MS = 15_000;

/**
 * `done`: applied (a stop and sell: its sale filled and booked); `requested`: a stop and sell applied whose
 * sale is still under way when the wait ended (the bot shows Stopping until it is booked).
 */
export type CommandOutcome = 'done' | 'requested';

/** What waiting for a command reads: the database and the process's bus listener for command answers. */
export type CommandWaitDeps = Pick<AppDeps, 'db'> & { state: Pick<ProcessState, 'commandResults'> };

/** What sending a command uses: the wait's slice and the hand-over to the bot runtime. */
export type CommandDeps = CommandWaitDeps & Pick<AppDeps, 'botControl'>;

/**
 * Queues a command for a running bot in the database (the source of truth), wakes its worker and waits
 * until the worker has applied it, so the answer the user sees is what happened. A stop and sell is waited
 * for until its sale is booked (docs/trading-rules.md §3); a sale that fails answers `failure` with the exchange's reason.
 */
export async function sendBotCommand(
  deps: CommandDeps,
  botId: string,
  command: BotCommand,
  failure: string,
  waitMs = WAIT_MS,
): Promise<CommandOutcome> {
  const { type, ...payload } = command;
  const waited = await queueAndAwait(
    deps,
    botId,
    async () => {
      const id = await repo.queueCommand(deps.db, botId, type, payload);
      await deps.botControl.notify(botId);
      return id;
    },
    waitMs,
  );
  if (waited.status === 'done') return 'done';
  if (waited.status === 'failed')
    throw new HttpError(400, type === 'stop_sell' ? failureText(failure, waited.error) : failure);
  if (waited.status === 'applied') return 'requested';
  throw new HttpError(
    503,
    `${failure}: the bot did not answer in time; it will apply the change when it does.`,
  );
}

/** Where a command stands when the wait for it ends. */
export type CommandWait =
  | { status: 'done' }
  | { status: 'failed'; error: string | null }
  /** Applied, its order still under way (a stop and sell's sale, a re-buy) when the deadline came. */
  | { status: 'applied' }
  /** Still queued at the deadline: the bot did not answer. */
  | { status: 'queued' };

/**
 * Runs `queue` (which writes the command's row and hands it to the runtime; it answers the row's id) and waits
 * until the command is done or failed, or the deadline passes. Listens before the command exists, so the
 * answer cannot come before it is heard; the row (the source of truth) is read on each word the worker says
 * on the bus about the bot, and once more at the deadline (a lost message only costs the wait).
 */
export async function queueAndAwait(
  deps: CommandWaitDeps,
  botId: string,
  queue: () => Promise<number>,
  waitMs = WAIT_MS,
): Promise<CommandWait> {
  const settled = await deps.state.commandResults.settlements(botId);
  try {
    // The wait's deadline is elapsed time (monotonic), not a business time: a wall-clock step cannot cut it short.
    const deadline = performance.now() + waitMs;
    const id = await queue();
    for (;;) {
      const row = await repo.commandStatus(deps.db, id);
      if (row?.status === 'done') return { status: 'done' };
      if (row?.status === 'failed') return { status: 'failed', error: row.error };
      const left = deadline - performance.now();
      if (left <= 0) return { status: row?.status === 'applied' ? 'applied' : 'queued' };
      await settled.next(left);
    }
  } finally {
    settled.close();
  }
}

/**
 * The spec's failure text, with the reason a sale failed (the exchange's message, or why the runtime halted
 * the bot); an internal error (`SomethingError: …`, logged by the worker) is not shown.
 */
function failureText(failure: string, error: string | null): string {
  return error && !/^\w*Error\b/.test(error) ? `${failure}: ${error}` : failure;
}

/** The user's running bot of this type, or 404 (another user's bot reads as missing). */
export async function runningBotOf(
  deps: Pick<AppDeps, 'db'>,
  userId: string,
  botId: string,
  type: repo.BotType,
) {
  const bot = await repo.findUserBot(deps.db, userId, botId, type);
  if (!bot) throw new HttpError(404, m.botNotFound);
  return bot;
}

export function assertRunning(bot: repo.BotRow) {
  if (bot.status === 'Stopped') throw new HttpError(400, m.botNotRunning);
}

/** After a subscription: every running grid bot of the user may open new grid-1 cycles again. */
export async function allowNewCycles(deps: Pick<AppDeps, 'db' | 'botControl'>, userId: string) {
  const botIds = await queueForRunningGridBots(deps.db, userId, 'new_cycles', { allowed: true });
  for (const botId of botIds) await deps.botControl.notify(botId);
}
