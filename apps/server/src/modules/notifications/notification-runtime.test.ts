import { bots, createTestDb, type DbHandle } from '@gridbot/db';
import type { EngineState } from '@gridbot/engine';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryBus } from '../../bus/bus';
import { subscribeUserEvents, type UserEvent } from '../../bus/user-events';
import { SecretBox } from '../../lib/secret-box';
import { insertBot, insertUserWithKeys } from '../../testing/bot-fixtures';
import { createRuntimeWrites, haltBot, saveFill } from '../../worker/runtime-writes';
import { publishBotWrites, startNotifications } from './notification-runtime';

let handle: DbHandle;
const secrets = SecretBox.fromKey(Buffer.alloc(32, 5));

beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

async function until<T>(read: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('notification runtime', () => {
  it('publishes committed fills and halts for the push channel, and new notifications for the bell', async () => {
    const bus = new MemoryBus();
    const events: UserEvent[] = [];
    await subscribeUserEvents(bus, (batch) => events.push(...batch));
    // The runtime's writes as a role wires them (roles/run-worker.ts).
    const writes = createRuntimeWrites(handle.db, () => Date.now(), {
      onBotsWritten: (w) => publishBotWrites(bus, w),
    });
    const stop = startNotifications({
      db: handle.db,
      bus,
      mailer: { send: async () => undefined },
      secrets,
      config: {
        production: false,
        exchange: 'paper',
        serverPublicIp: undefined,
        publicUrl: 'http://localhost:3000',
        subscriptionEnabled: false,
        adminEmail: undefined,
      },
      log: () => undefined,
    });
    try {
      const userId = await insertUserWithKeys(handle.db, secrets);
      const botId = await insertBot(handle.db, userId);
      const [row] = await handle.db.select().from(bots).where(eq(bots.id, botId));
      const state = row!.engineState as unknown as EngineState;
      const committedBefore = Date.now();
      await saveFill(
        writes,
        botId,
        userId,
        {
          seq: 1,
          side: 'buy',
          grid: 1,
          price: '100',
          qty: '1',
          quote: '100',
          fee: '0.1',
          pnl: null,
          timeMs: 1,
        },
        state,
        100,
      );
      const committedBy = Date.now();
      expect(await until(() => events.find((e) => e.kind === 'bot' && e.change === 'fill'))).toEqual({
        kind: 'bot',
        botId,
        userId,
        change: 'fill',
        status: 'Live',
        // The commit's time, for the pages to measure how late they show the fill.
        at: expect.any(Number),
      });
      const fill = events.find((e) => e.kind === 'bot' && e.change === 'fill') as { at: number };
      expect(fill.at).toBeGreaterThanOrEqual(committedBefore);
      expect(fill.at).toBeLessThanOrEqual(committedBy);

      await haltBot(writes, botId, 'API keys are not connected. Connect them in API Setting.');
      expect(await until(() => events.find((e) => e.kind === 'bot' && e.change === 'state'))).toMatchObject({
        botId,
        status: 'Pause',
      });
      const notification = await until(() => events.find((e) => e.kind === 'notification'));
      expect(notification).toMatchObject({
        kind: 'notification',
        userId,
        item: { type: 'bot_paused', botId, body: expect.stringContaining('API keys are not connected') },
      });
    } finally {
      await stop();
    }
  });
});
