import { bots, paperBalances, paperLedger } from '@gridbot/db';
import { eventually } from '@gridbot/exchange/testing';
import { botMessages, walletMessages as m, money } from '@gridbot/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBot } from '../../testing/bot-fixtures';
import { call, registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { PAPER_ACCOUNT_KEYS } from '../exchange/user-exchange';

// Money under concurrency (docs/security.md "One account, one queue"): a member firing many requests at once
// gets what the same requests one after another would give. Runs on PGlite, and on PostgreSQL with
// TEST_DATABASE_URL, where the requests also overlap inside the database.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const keys = { apiKey: 'k'.repeat(64), secretKey: 'secret-secret-secret' };

async function member(prefix: string) {
  const user = await registerUser(t, prefix);
  const auth = { token: user.token };
  await call(t, 'POST', '/api/apikeys', keys, auth);
  const me = await call(t, 'GET', '/api/me', undefined, auth);
  const id = (me.body.user as { id: string }).id;
  return { auth, id, exchange: t.deps.exchanges.forUser(id, PAPER_ACCOUNT_KEYS) };
}

const parallel = <T>(n: number, request: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => request(i)));

const usdt = async (exchange: Member['exchange'], wallet: 'spot' | 'future') =>
  (await exchange.balances(wallet)).find((b) => b.asset === 'USDT')?.free ?? '0';
type Member = Awaited<ReturnType<typeof member>>;

/** Every paper balance equals the sum of its ledger rows, and none is negative. */
async function ledgerProblems(userId: string): Promise<string[]> {
  const balances = await t.deps.db.select().from(paperBalances).where(eq(paperBalances.userId, userId));
  const sums = await t.deps.db
    .select({
      wallet: paperLedger.wallet,
      asset: paperLedger.asset,
      total: sql<string>`sum(${paperLedger.amount})::text`,
    })
    .from(paperLedger)
    .where(eq(paperLedger.userId, userId))
    .groupBy(paperLedger.wallet, paperLedger.asset);
  const problems: string[] = [];
  for (const b of balances) {
    const total = money(b.free).plus(b.locked);
    const ledger = sums.find((s) => s.wallet === b.wallet && s.asset === b.asset)?.total ?? '0';
    if (!total.eq(ledger)) problems.push(`${b.wallet} ${b.asset}: balance ${total} ≠ ledger ${ledger}`);
    if (money(b.free).isNeg()) problems.push(`${b.wallet} ${b.asset}: negative ${b.free}`);
  }
  return problems;
}

/**
 * A member who bought just over 0.004 BTC of their own, then started a 5,000 USDT BTCUSDT bot whose first
 * grid has bought (about 1,000 USDT of BTC, far more than the member's own).
 */
async function memberWithBtcBot(prefix: string) {
  const user = await member(prefix);
  // 0.00401 less the 0.1 % fee taken from it.
  await user.exchange.placeOrder({
    market: 'spot',
    symbol: 'BTCUSDT',
    side: 'buy',
    type: 'market',
    clientOrderId: 'own-btc',
    quantity: '0.00401',
  });
  const start = await call(
    t,
    'POST',
    '/api/startbotdata',
    {
      botType: 'Multigrid',
      category: 'Spot',
      selectPair: 'BTCUSDT',
      myStrategy: 'Tight Range 5',
      amount: 5000,
    },
    user.auth,
  );
  expect(start.status).toBe(200);
  const botID = String(start.body.botId);
  // Once the runtime runs the bot (on PostgreSQL it takes it up a moment after the answer), grid 1 buys at
  // market on the next price.
  await eventually(async () => expect(t.supervisor.runner(botID)).toBeDefined());
  t.feed.step();
  await eventually(async () => {
    const book = await call(t, 'POST', '/api/orderbook', { botID }, user.auth);
    expect((book.body.orders as unknown[]).length).toBe(1);
  });
  return { user, botID };
}

describe('one account, many requests at once', () => {
  it("30 parallel transfers of 400 never reach a running bot's 5,000 USDT", async () => {
    const user = await member('rtransfer');
    await insertBot(t.handle.db, user.id, { symbol: 'BTCUSDT', investment: 5000 });
    const answers = await parallel(30, () =>
      call(
        t,
        'POST',
        '/api/transferspottofutures',
        { from: 'Spot', to: 'Futures', coin: 'USDT', amount: 400 },
        user.auth,
      ),
    );
    const moved = answers.filter((a) => a.status === 200).length;
    // 10,000 − 5,000 held = 5,000 free: twelve transfers of 400 fit, the thirteenth does not.
    expect(moved).toBe(12);
    for (const a of answers.filter((x) => x.status !== 200))
      expect(a).toMatchObject({ status: 400, body: { message: m.amountExceedsTransferable } });
    expect(await usdt(user.exchange, 'spot')).toBe('5200');
    expect(await usdt(user.exchange, 'future')).toBe('4800');
    expect(await ledgerProblems(user.id)).toEqual([]);
  });

  it('8 parallel starts on different pairs commit no more than the free USDT', async () => {
    const user = await member('rstart');
    const pairs = ['ETHUSDT', 'BTCUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'ADAUSDT'];
    const answers = await parallel(8, (i) =>
      i < pairs.length
        ? call(
            t,
            'POST',
            '/api/startbotdata',
            {
              botType: 'Multigrid',
              category: 'Spot',
              selectPair: pairs[i],
              myStrategy: 'Tight Range 5',
              amount: 3000,
            },
            user.auth,
          )
        : call(
            t,
            'POST',
            '/api/startcycledata',
            {
              category: 'Spot',
              pair: i === 6 ? 'DOGEUSDT' : 'LTCUSDT',
              amount: 3000,
              priceReachAt: 0.001,
              sellPriceAt: 1_000_000,
              stopLossAt: '',
              cycleCount: 1,
            },
            user.auth,
          ),
    );
    const started = answers.filter((a) => a.status === 200);
    // 10,000 USDT free: three starts of 3,000 fit, a fourth does not.
    expect(started).toHaveLength(3);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(400);
      expect(a.body.message).toContain(botMessages.insufficientBalance);
    }
    const rows = await t.deps.db
      .select({ investment: bots.investment })
      .from(bots)
      .where(and(eq(bots.userId, user.id), inArray(bots.status, ['Live', 'Pause', 'Stopping'])));
    expect(rows).toHaveLength(3);
    const funds = (await call(t, 'GET', '/api/committedfunds', undefined, user.auth)).body;
    expect(money(funds.spotUsdt as string).lte(await usdt(user.exchange, 'spot'))).toBe(true);
    expect(await ledgerProblems(user.id)).toEqual([]);
  });

  it("30 parallel swaps never sell a running bot's coins: its stop-with-sell still sells them", async () => {
    const { user, botID } = await memberWithBtcBot('rswap');

    const swaps = await parallel(30, () =>
      call(t, 'POST', '/api/swaptousdt', { asset: 'BTC', amount: '0.002' }, user.auth),
    );
    // Only the member's own coins could go: two swaps of 0.002; the others are refused before any sale.
    expect(swaps.filter((a) => a.status === 200)).toHaveLength(2);
    for (const a of swaps.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(400);
      expect(a.body.message).toContain('BTCUSDT Spot');
    }
    // The bot's coins are all still there for its sale.
    const stop = await call(
      t,
      'POST',
      '/api/stopbotwithsell',
      { botID, botData: {}, totalPnl: 0 },
      user.auth,
    );
    expect(stop).toMatchObject({ status: 200, body: { message: botMessages.stoppedSold } });
    expect(await ledgerProblems(user.id)).toEqual([]);
  });

  it('transfers, swaps and starts all at once, then a stop-with-sell: each bot keeps what it holds', async () => {
    const { user, botID } = await memberWithBtcBot('rmixed');
    const transfer = { from: 'Spot', to: 'Futures', coin: 'USDT', amount: 400 };
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => call(t, 'POST', '/api/transferspottofutures', transfer, user.auth)),
      ...Array.from({ length: 10 }, () =>
        call(t, 'POST', '/api/swaptousdt', { asset: 'BTC', amount: '0.002' }, user.auth),
      ),
      ...['ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT'].map((pair) =>
        call(
          t,
          'POST',
          '/api/startbotdata',
          {
            botType: 'Multigrid',
            category: 'Spot',
            selectPair: pair,
            myStrategy: 'Tight Range 5',
            amount: 3000,
          },
          user.auth,
        ),
      ),
    ]);
    for (const a of answers) expect([200, 400]).toContain(a.status);
    expect(answers.slice(10, 20).filter((a) => a.status === 200).length).toBeLessThanOrEqual(2);
    const funds = (await call(t, 'GET', '/api/committedfunds', undefined, user.auth)).body as {
      spotUsdt: string;
      coins: Record<string, string>;
    };
    const btc = (await user.exchange.balances('spot')).find((b) => b.asset === 'BTC')?.free ?? '0';
    expect(money(funds.spotUsdt).lte(await usdt(user.exchange, 'spot'))).toBe(true);
    expect(money(funds.coins.BTC ?? 0).lte(btc)).toBe(true);

    const stop = await call(
      t,
      'POST',
      '/api/stopbotwithsell',
      { botID, botData: {}, totalPnl: 0 },
      user.auth,
    );
    expect(stop).toMatchObject({ status: 200, body: { message: botMessages.stoppedSold } });
    expect(await ledgerProblems(user.id)).toEqual([]);
  });
});
