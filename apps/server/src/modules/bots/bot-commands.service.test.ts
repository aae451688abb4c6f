/**
 * A command request waits on the worker's word on the bus, not on a database poll: it reads the command's row
 * when the worker says it settled commands of the bot, and once more at its deadline.
 */
import { botCommands, createTestDb, type DbHandle } from '@gridbot/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryBus } from '../../bus/bus';
import { CommandResults, publishCommandsSettled } from '../../bus/command-results';
import { SecretBox } from '../../lib/secret-box';
import { insertBot, insertUserWithKeys } from '../../testing/bot-fixtures';
import { type CommandDeps, sendBotCommand } from './bot-commands.service';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

/** A worker that applies the bot's queued command after `delayMs`, and says so on the bus when `announce`. */
function slowWorker(bus: MemoryBus, delayMs: number, announce: boolean) {
  return async (botId: string) => {
    setTimeout(async () => {
      await handle.db.update(botCommands).set({ status: 'done' }).where(eq(botCommands.botId, botId));
      if (announce) await publishCommandsSettled(bus, botId);
    }, delayMs);
  };
}

async function freshBot() {
  const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 8)));
  return insertBot(handle.db, userId);
}

describe('waiting for a bot command', () => {
  it('answers as soon as the worker says on the bus that it applied the command', async () => {
    const bus = new MemoryBus();
    const botId = await freshBot();
    const deps: CommandDeps = {
      db: handle.db,
      state: { commandResults: new CommandResults(bus) },
      botControl: { add: async () => {}, notify: slowWorker(bus, 100, true) },
    };
    const started = performance.now();
    const outcome = await sendBotCommand(deps, botId, { type: 'stop' }, 'failed', 10_000);
    expect(outcome).toBe('done');
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('reads the command once more at its deadline when the word was lost', async () => {
    const bus = new MemoryBus();
    const botId = await freshBot();
    const deps: CommandDeps = {
      db: handle.db,
      state: { commandResults: new CommandResults(bus) },
      botControl: { add: async () => {}, notify: slowWorker(bus, 50, false) },
    };
    const started = performance.now();
    const outcome = await sendBotCommand(deps, botId, { type: 'stop' }, 'failed', 600);
    expect(outcome).toBe('done');
    // No poll found it earlier: the answer came with the final read.
    expect(performance.now() - started).toBeGreaterThanOrEqual(550);
  });
});
