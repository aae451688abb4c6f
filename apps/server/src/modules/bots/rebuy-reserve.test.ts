import { botCommands } from '@gridbot/db';
import { eventually } from '@gridbot/exchange/testing';
import { botMessages as m, money, walletMessages } from '@gridbot/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { PAPER_ACCOUNT_KEYS } from '../exchange/user-exchange';

// The USDT a re-buy of coins sold outside the platform needs stays set aside from the moment the member
// chooses it until the runtime has bought (docs/security.md "One account, one queue"). PGlite, and PostgreSQL
// with TEST_DATABASE_URL.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const keys = { apiKey: 'k'.repeat(64), secretKey: 'secret-secret-secret' };
const start = {
  botType: 'Multigrid',
  category: 'Spot',
  selectPair: 'ETHUSDT',
  myStrategy: 'Tight Range 5',
  amount: 500,
};

/** A bot whose grid-1 ETH the member sold outside the platform: the runtime paused it over the missing coins. */
async function botWithCoinsSoldOutside() {
  const user = await registerUser(t, 'rbres');
  const auth = { token: user.token };
  await call(t, 'POST', '/api/apikeys', keys, auth);
  const botID = String((await call(t, 'POST', '/api/startbotdata', start, auth)).body.botId);
  await eventually(async () => expect(t.supervisor.runner(botID)).toBeDefined());
  t.feed.step(); // grid 1 buys at market
  await eventually(async () => {
    const book = await call(t, 'POST', '/api/orderbook', { botID }, auth);
    expect((book.body.orders as unknown[]).length).toBe(1);
  });
  const me = await call(t, 'GET', '/api/me', undefined, auth);
  const account = t.deps.exchanges.forUser((me.body.user as { id: string }).id, PAPER_ACCOUNT_KEYS);
  const eth = (await account.balances('spot')).find((b) => b.asset === 'ETH')!;
  await account.convertToUsdt('ETH', eth.free);
  await t.supervisor.runner(botID)?.checkHoldings();
  const info = await call(t, 'POST', '/api/botinfo', { botID }, auth);
  expect(info.body).toMatchObject({ status: 'Pause', haltReason: expect.stringMatching(/sold outside/) });
  return { auth, botID };
}

describe('a re-buy the member chose', () => {
  it('keeps its USDT from a transfer until the runtime has bought', async () => {
    const { auth, botID } = await botWithCoinsSoldOutside();
    const freeBefore = (await call(t, 'GET', '/api/spotBalance', undefined, auth)).body
      .spotusdtAmount as string;
    // The runtime takes the resumed bot up only when let: until then its re-buy is chosen, not bought.
    const control = t.deps.botControl;
    let letRun!: () => void;
    const held = new Promise<void>((resolve) => {
      letRun = resolve;
    });
    (t.deps as { botControl: typeof control }).botControl = {
      ...control,
      add: async (botId) => {
        await held;
        await control.add(botId);
      },
    };
    try {
      const resume = call(t, 'POST', '/api/resumebot', { botID, missingLots: 'rebuy' }, auth);
      const [command] = await eventually(async () => {
        const rows = await t.deps.db
          .select({ payload: botCommands.payload })
          .from(botCommands)
          .where(and(eq(botCommands.botId, botID), eq(botCommands.type, 'missing_lots')));
        expect(rows).toHaveLength(1);
        return rows;
      });
      // What was free before the choice is no longer: the re-buy holds part of it.
      const amount = Math.floor(Number(freeBefore) * 100) / 100;
      const moveAll = { from: 'Spot', to: 'Futures', coin: 'USDT', amount };
      const refused = await call(t, 'POST', '/api/transferspottofutures', moveAll, auth);
      expect(refused).toMatchObject({
        status: 400,
        body: { message: walletMessages.amountExceedsTransferable },
      });
      const reserved = String((command!.payload as { reserveUsdt?: string }).reserveUsdt);
      expect(money(reserved).gt(0)).toBe(true);
      const freeNow = (await call(t, 'GET', '/api/spotBalance', undefined, auth)).body
        .spotusdtAmount as string;
      expect(money(freeNow).toFixed()).toBe(money(freeBefore).minus(reserved).toFixed());

      letRun();
      expect(await resume).toMatchObject({ status: 200, body: { message: m.resumed } });
    } finally {
      letRun();
      (t.deps as { botControl: typeof control }).botControl = control;
    }
    const book = await call(t, 'POST', '/api/orderbook', { botID }, auth);
    expect((book.body.orders as { type: string }[]).map((o) => o.type)).toEqual(['BUY', 'BUY']);
    await call(t, 'POST', '/api/stopbot', { botID }, auth);
  });
});
