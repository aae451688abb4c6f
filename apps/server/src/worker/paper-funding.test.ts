/**
 * Funding of paper futures bots (docs/trading-rules.md §2.2): at 00:00, 08:00 and 16:00 UTC of the feed's clock an
 * open long pays its notional × a positive rate and receives it at a negative one, booked on the bot (its PnL and
 * funding total) and as a FUNDING row of its Order Book, once per funding time.
 */
import { botFills, bots, createTestDb, type DbHandle, platformLedger } from '@gridbot/db';
import type { GridBotState } from '@gridbot/engine';
import { type FundingRates, PaperExchange, type PaperExchangeOptions } from '@gridbot/exchange';
import { eventually, ManualFeed } from '@gridbot/exchange/testing';
import { getMarketRules } from '@gridbot/shared';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { ensureWallet, findWallet } from '../modules/credit/ledger.repo';
import { paperGateway } from '../modules/exchange/exchange-gateway';
import { SqlPaperStore } from '../modules/paper/sql-paper-store.repo';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { BotSupervisor } from './bot-supervisor';
import { createRuntimeWrites, saveFunding } from './runtime-writes';

let handle: DbHandle;
const secrets = SecretBox.fromKey(Buffer.alloc(32, 5));

beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

const at = (iso: string) => Date.parse(iso);
/** Rates per funding time, as Binance publishes them (a fraction per 8 h). */
const RATES = new Map([
  [at('2025-05-05T08:00:00Z'), 0.0001],
  [at('2025-05-05T16:00:00Z'), -0.0002],
  [at('2025-05-06T00:00:00Z'), 0.0003],
  [at('2025-05-06T08:00:00Z'), 0.0001],
]);
const funding: FundingRates = { rateAt: (_symbol, time) => RATES.get(time) };

async function fundingRows(botId: string) {
  return handle.db
    .select()
    .from(botFills)
    .where(eq(botFills.botId, botId))
    .orderBy(asc(botFills.id))
    .then((rows) => rows.filter((r) => r.side === 'FUNDING'));
}

/**
 * One worker process: its feed, its paper exchange on the shared database, and its bot supervisor.
 * `diesBeforePaying` makes it stop for good between a funding row and its wallet payment, as a crash would.
 */
async function startWorker(
  options: { diesBeforePaying?: boolean; rules?: PaperExchangeOptions['rules']; funding?: FundingRates } = {},
) {
  const feed = new ManualFeed();
  const paper = new PaperExchange({
    store: new SqlPaperStore(handle.db),
    feed,
    ...(options.rules ? { rules: options.rules } : {}),
    startFunds: [{ wallet: 'future', asset: 'USDT', amount: '10000' }],
  });
  await paper.start();
  const supervisor = new BotSupervisor({
    db: handle.db,
    feed,
    funding: options.funding ?? funding,
    payFunding: options.diesBeforePaying
      ? () => Promise.reject(new Error('the process died'))
      : (userId, amount, refId) => paper.applyFunding(userId, amount, refId),
    exchanges: paperGateway(paper),
    loadKeys: async () => ({ apiKey: 'k', secret: 's' }),
    now: () => Date.now(),
    log: () => {},
  });
  await supervisor.start();
  return {
    feed,
    paper,
    async stop() {
      await supervisor.stop();
      await paper.stop();
    },
  };
}

async function engineStateOf(botId: string) {
  const [bot] = await handle.db.select().from(bots).where(eq(bots.id, botId));
  return bot!.engineState as unknown as GridBotState;
}

/**
 * A user with keys and an ETHUSDT futures bot at 2× on a running worker, its grid 1 bought before the
 * 08:00 funding time: 400 USDT margin at 2× = 800 notional, at 2000 that is 0.4 ETH. `profitLimitLeft`
 * gives the user a platform wallet with that much profit limit first.
 */
async function startFundedFuturesBot(options: { profitLimitLeft?: string } = {}) {
  const userId = await insertUserWithKeys(handle.db, secrets);
  if (options.profitLimitLeft) await ensureWallet(handle.db, userId, options.profitLimitLeft);
  const botId = await insertBot(handle.db, userId, { symbol: 'ETHUSDT', market: 'future', leverage: 2 });
  const worker = await startWorker();
  worker.feed.setPrice('ETHUSDT', 'future', '2000', at('2025-05-05T07:00:00Z'));
  await eventually(async () => expect((await engineStateOf(botId)).account.openQty).toBe(0.4));
  return { userId, botId, worker };
}

describe('funding of paper futures bots', () => {
  it('books each funding time the feed passes, paid on a positive rate and received on a negative one', async () => {
    const { userId, botId, worker } = await startFundedFuturesBot();
    const { feed, paper } = worker;
    // 08:00, rate +0.01 %: the long pays 0.4 × 2000 × 0.0001 = 0.08.
    feed.setPrice('ETHUSDT', 'future', '2000', at('2025-05-05T08:00:00Z'));
    await eventually(async () => expect(await fundingRows(botId)).toHaveLength(1));
    // No funding time between 08:00 and 15:59.
    feed.setPrice('ETHUSDT', 'future', '2001', at('2025-05-05T15:59:00Z'));
    // One tick after midnight passes 16:00 (−0.02 %: receives 0.4 × 2010 × 0.0002 = 0.1608) and 00:00
    // (+0.03 %: pays 0.4 × 2010 × 0.0003 = 0.2412), both at the price the bot sees then.
    feed.setPrice('ETHUSDT', 'future', '2010', at('2025-05-06T00:00:30Z'));
    await eventually(async () => expect(await fundingRows(botId)).toHaveLength(3));

    const rows = await fundingRows(botId);
    expect(rows.map((r) => [r.clientOrderId, r.price, r.qty, r.quote, Number(r.pnl), r.fee, r.seq])).toEqual([
      [`funding-${at('2025-05-05T08:00:00Z')}`, '2000', '0.4', '800', -0.08, '0', null],
      [`funding-${at('2025-05-05T16:00:00Z')}`, '2010', '0.4', '804', 0.1608, '0', null],
      [`funding-${at('2025-05-06T00:00:00Z')}`, '2010', '0.4', '804', -0.2412, '0', null],
    ]);
    // The paper account's futures wallet pays and receives the same amounts, as funding ledger rows.
    const fundingLedger = async () =>
      (await paper.store.ledger(userId))
        .filter((l) => l.kind === 'funding')
        .map((l) => [l.wallet, l.asset, Number(l.amount)]);
    await eventually(async () => expect(await fundingLedger()).toHaveLength(3));
    expect(await fundingLedger()).toEqual([
      ['future', 'USDT', -0.08],
      ['future', 'USDT', 0.1608],
      ['future', 'USDT', -0.2412],
    ]);
    await worker.stop();

    // In the bot's PnL: booked profit and the funding total, and the Order Book counts the rows.
    const [bot] = await handle.db.select().from(bots).where(eq(bots.id, botId));
    const state = bot!.engineState as unknown as GridBotState;
    expect(state.account.funding).toBeCloseTo(-0.1604, 8);
    expect(state.account.bookedProfit).toBeCloseTo(-0.1604, 8);
    expect(bot!.fillCount).toBe(4);
    expect(Number(bot!.lossBook)).toBeCloseTo(-0.3212, 8);
    expect(Number(bot!.profitBook)).toBeCloseTo(0.1608, 8);

    // A funding time is booked once: a second write of it (a reloaded bot, a repeated tick) changes nothing.
    const again = await saveFunding(
      createRuntimeWrites(handle.db, () => Date.now()),
      botId,
      userId,
      {
        fundingTimeMs: at('2025-05-06T00:00:00Z'),
        timeMs: Date.now(),
        price: 2010,
        qty: 0.4,
        amount: -0.2412,
      },
      { ...state, account: { ...state.account, funding: -0.4016, bookedProfit: -0.4016 } },
      2010,
    );
    expect(again).toBe(false);
    const [after] = await handle.db.select().from(bots).where(eq(bots.id, botId));
    expect((after!.engineState as unknown as GridBotState).account.funding).toBeCloseTo(-0.1604, 8);
    expect(await fundingRows(botId)).toHaveLength(3);
  });

  it('counts funding received against the profit limit, and funding paid gives none of it back', async () => {
    // A platform wallet with 0.1 USDT of profit limit left.
    const { userId, botId, worker: running } = await startFundedFuturesBot({ profitLimitLeft: '0.1' });

    // 08:00 pays 0.08: a loss, the profit limit stays.
    running.feed.setPrice('ETHUSDT', 'future', '2000', at('2025-05-05T08:00:00Z'));
    await eventually(async () => expect(await fundingRows(botId)).toHaveLength(1));
    expect((await findWallet(handle.db, userId))?.availableCredit).toBe('0.1');

    // 16:00 receives 0.4 × 2010 × 0.0002 = 0.1608 of profit: it uses up the 0.1 left, so the bot opens no
    // new grid-1 cycle.
    running.feed.setPrice('ETHUSDT', 'future', '2010', at('2025-05-05T16:00:00Z'));
    await eventually(async () => expect(await fundingRows(botId)).toHaveLength(2));
    expect(Number((await findWallet(handle.db, userId))?.availableCredit)).toBe(0);
    const ledger = await handle.db.select().from(platformLedger).where(eq(platformLedger.userId, userId));
    expect(ledger.filter((l) => l.reason === 'profit_booked').map((l) => [Number(l.delta), l.refId])).toEqual(
      [[-0.1, botId]],
    );
    await eventually(async () => expect((await engineStateOf(botId)).settings.newCyclesAllowed).toBe(false));
    await running.stop();
  });

  it('books the funding times that passed while no worker ran once, when a worker runs the bot again', async () => {
    const { userId, botId, worker: first } = await startFundedFuturesBot();
    first.feed.setPrice('ETHUSDT', 'future', '2000', at('2025-05-05T08:00:00Z'));
    await eventually(async () => expect(await fundingRows(botId)).toHaveLength(1));
    // The server goes down at 09:00 and is back just after midnight: 16:00 and 00:00 passed without a worker.
    first.feed.setPrice('ETHUSDT', 'future', '2001', at('2025-05-05T09:00:00Z'));
    await first.stop();

    const second = await startWorker();
    second.feed.setPrice('ETHUSDT', 'future', '2010', at('2025-05-06T00:00:30Z'));
    await eventually(async () => expect(await fundingRows(botId)).toHaveLength(3));
    await second.stop();

    // Another restart books nothing again; the bot funds on at the next funding time.
    const third = await startWorker();
    third.feed.setPrice('ETHUSDT', 'future', '2010', at('2025-05-06T00:01:00Z'));
    third.feed.setPrice('ETHUSDT', 'future', '2020', at('2025-05-06T08:00:00Z'));
    await eventually(async () => expect(await fundingRows(botId)).toHaveLength(4));
    await third.stop();

    // Each missed time at its own rate, at the price of the first tick after it (as a funding time passed
    // between two ticks of a running worker).
    expect((await fundingRows(botId)).map((r) => [r.clientOrderId, r.price, Number(r.pnl)])).toEqual([
      [`funding-${at('2025-05-05T08:00:00Z')}`, '2000', -0.08],
      [`funding-${at('2025-05-05T16:00:00Z')}`, '2010', 0.1608],
      [`funding-${at('2025-05-06T00:00:00Z')}`, '2010', -0.2412],
      [`funding-${at('2025-05-06T08:00:00Z')}`, '2020', -0.0808],
    ]);
    const state = await engineStateOf(botId);
    expect(state.account.funding).toBeCloseTo(-0.2412, 8);
    // The futures wallet moved once per funding time.
    const ledger = await first.paper.store.ledger(userId);
    expect(ledger.filter((l) => l.kind === 'funding').map((l) => Number(l.amount))).toEqual([
      -0.08, 0.1608, -0.2412, -0.0808,
    ]);
  });

  it('pays the futures wallet a funding the bot booked just before a crash once, when a worker runs the bot again', async () => {
    const { userId, botId, worker: first } = await startFundedFuturesBot();
    first.feed.setPrice('ETHUSDT', 'future', '2000', at('2025-05-05T08:00:00Z'));
    await eventually(async () => expect(await fundingRows(botId)).toHaveLength(1));
    await first.stop();
    // The next worker books 16:00 on the bot and dies before the wallet pays it.
    const dying = await startWorker({ diesBeforePaying: true });
    dying.feed.setPrice('ETHUSDT', 'future', '2010', at('2025-05-05T16:00:30Z'));
    await eventually(async () => expect(await fundingRows(botId)).toHaveLength(2));
    await dying.stop();
    const fundingLedger = async () =>
      (await first.paper.store.ledger(userId))
        .filter((l) => l.kind === 'funding')
        .map((l) => Number(l.amount));
    expect(await fundingLedger()).toEqual([-0.08]);

    // The worker after it pays the booked 0.1608 (not one at its own price), and the one after that nothing more.
    for (const price of ['2030', '2040']) {
      const next = await startWorker();
      next.feed.setPrice('ETHUSDT', 'future', price, at('2025-05-05T17:00:00Z'));
      await eventually(async () => expect(await fundingLedger()).toEqual([-0.08, 0.1608]));
      await next.stop();
    }
    expect(await fundingRows(botId)).toHaveLength(2);
    expect((await engineStateOf(botId)).account.funding).toBeCloseTo(0.0808, 8);
  });

  it("funds at the symbol's funding interval, on the tick's mark price", async () => {
    // A symbol Binance funds every 4 hours, at +0.01 % at each funding time.
    const rules: PaperExchangeOptions['rules'] = (symbol, market) => ({
      ...getMarketRules(symbol, market),
      ...(market === 'future' ? { fundingIntervalHours: 4 } : {}),
    });
    const userId = await insertUserWithKeys(handle.db, secrets);
    const botId = await insertBot(handle.db, userId, { symbol: 'ETHUSDT', market: 'future', leverage: 2 });
    const worker = await startWorker({ rules, funding: { rateAt: () => 0.0001 } });
    worker.feed.setPrice('ETHUSDT', 'future', '2000', at('2025-05-05T03:00:00Z'));
    await eventually(async () => expect((await engineStateOf(botId)).account.openQty).toBe(0.4));
    // 04:00 is a funding time of a 4-hour symbol (none of an 8-hour one): the long pays its size at the mark,
    // 0.4 × 2100 × 0.0001 = 0.084, not at the last price 2000.
    worker.feed.setPrice('ETHUSDT', 'future', '2000', at('2025-05-05T04:00:30Z'), '2100');
    await eventually(async () => expect(await fundingRows(botId)).toHaveLength(1));
    const rows = await fundingRows(botId);
    expect(rows.map((r) => [r.clientOrderId, r.price, r.qty, Number(r.pnl)])).toEqual([
      [`funding-${at('2025-05-05T04:00:00Z')}`, '2100', '0.4', -0.084],
    ]);
    await worker.stop();
  });
});
