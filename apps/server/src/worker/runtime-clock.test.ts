/**
 * The bot runtime stamps the rows it writes with the process's injected clock, as the API does: when a bot
 * command ended reads in the same time as the bot's fills and the API's own rows, and a clock that moves (a
 * test's, a replay's) moves it too.
 */
import { botCommands, bots } from '@gridbot/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../testing/http';
import { createTestApp, type TestApp } from '../testing/test-app';

const DAY_MS = 86_400_000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('the runtime clock', () => {
  it("stamps a bot's stop and the end of its stop command with the injected clock, not the machine's", async () => {
    const user = await registerUser(t, 'clk');
    const auth = { token: user.token };
    await call(
      t,
      'POST',
      '/api/apikeys',
      { apiKey: 'k'.repeat(64), secretKey: 'secret-secret-secret' },
      auth,
    );
    const started = await call(
      t,
      'POST',
      '/api/startbotdata',
      {
        botType: 'Multigrid',
        category: 'Spot',
        selectPair: 'ETHUSDT',
        myStrategy: 'Tight Range 5',
        amount: 500,
      },
      auth,
    );
    const botID = String(started.body.botId);
    // Days ahead of the machine's clock, so a row stamped by the machine's clock cannot pass.
    t.clock.advance(3 * DAY_MS);
    expect((await call(t, 'POST', '/api/stopbot', { botID }, auth)).status).toBe(200);
    const [command] = await t.handle.db.select().from(botCommands).where(eq(botCommands.botId, botID));
    expect(command?.status).toBe('done');
    expect(command?.doneAt?.getTime()).toBe(t.clock.now().getTime());
    const [bot] = await t.handle.db.select().from(bots).where(eq(bots.id, botID));
    expect(bot?.status).toBe('Stopped');
    expect(bot?.stoppedAt?.getTime()).toBe(t.clock.now().getTime());
  });
});
