/**
 * Funding of paper futures range grids (docs/trading-rules.md §2.2 on §2.6's position): at each funding time of
 * the feed's clock the grid's one-way position pays or receives size × mark price × rate (a long pays at a
 * positive rate, a short receives), booked once on the grid (its wallet balance, so its PnL, and its funding
 * total), as a FUNDING row of its Order Book and in the paper account's futures wallet, as the grid bots book it.
 *
 * Figures by hand: ETHUSDT futures (step 0.001), 180 USDT at 2× on 1900–2100 in 4 levels of 50, started at
 * 2000: q = floor(360 / (1900 + 1950 + 2000 × 2) / 0.001) × 0.001 = 0.045; the sells at 2050 and 2100 are
 * opened as a long at start: 0.09 ETH. Short, mirrored, with 184 USDT: q = floor(368 / (2050 + 2100 + 2000 × 2) /
 * 0.001) × 0.001 = 0.045; the buys at 1950 and 1900 close a 0.09 ETH short opened at start.
 */
import { botFills, bots, createTestDb, type DbHandle } from '@gridbot/db';
import type { RangeState } from '@gridbot/engine';
import { type FundingRates, PaperExchange } from '@gridbot/exchange';
import { eventually, ManualFeed } from '@gridbot/exchange/testing';
import { money, rangeStrategySchema } from '@gridbot/shared';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../lib/clock';
import { SecretBox } from '../lib/secret-box';
import { paperGateway } from '../modules/exchange/exchange-gateway';
import { gridInfo } from '../modules/grid/grid.service';
import { SqlPaperStore } from '../modules/paper/sql-paper-store.repo';
import { insertUserWithKeys } from '../testing/bot-fixtures';
import { insertRangeBot } from '../testing/range-fixtures';
import { BotSupervisor } from './bot-supervisor';

let handle: DbHandle;
const secrets = SecretBox.fromKey(Buffer.alloc(32, 6));

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
]);
const funding: FundingRates = { rateAt: (_symbol, time) => RATES.get(time) };

async function startWorker() {
  const feed = new ManualFeed();
  const paper = new PaperExchange({
    store: new SqlPaperStore(handle.db),
    feed,
    startFunds: [{ wallet: 'future', asset: 'USDT', amount: '10000' }],
  });
  await paper.start();
  const supervisor = new BotSupervisor({
    db: handle.db,
    feed,
    funding,
    payFunding: (userId, amount, refId) => paper.applyFunding(userId, amount, refId),
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

async function botRow(botId: string) {
  const [row] = await handle.db.select().from(bots).where(eq(bots.id, botId));
  return { row: row!, state: row!.engineState as unknown as RangeState };
}

const fundingRows = (botId: string) =>
  handle.db
    .select()
    .from(botFills)
    .where(eq(botFills.botId, botId))
    .orderBy(asc(botFills.id))
    .then((rows) => rows.filter((r) => r.side === 'FUNDING'));

/** A 0.09 ETH position of a futures range grid (`direction`), opened at 2000 before the 08:00 funding time. */
async function startGrid(direction: 'long' | 'short', investment: number) {
  const userId = await insertUserWithKeys(handle.db, secrets);
  const params = rangeStrategySchema.parse({
    type: 'range',
    lower: 1900,
    upper: 2100,
    grids: 4,
    direction,
    leverage: 2,
  });
  const { botId } = await insertRangeBot(handle.db, userId, {
    symbol: 'ETHUSDT',
    market: 'future',
    params,
    investment,
  });
  const worker = await startWorker();
  worker.feed.setPrice('ETHUSDT', 'future', '2000', at('2025-05-05T07:00:00Z'));
  const size = direction === 'long' ? 0.09 : -0.09;
  await eventually(async () => expect((await botRow(botId)).state.futures?.pos).toBe(size));
  return { userId, botId, worker };
}

const fundingLedger = async (paper: PaperExchange, userId: string) =>
  (await paper.store.ledger(userId))
    .filter((l) => l.kind === 'funding')
    .map((l) => [l.wallet, l.asset, money(l.amount).toFixed()]);

describe('funding of paper futures range grids', () => {
  it('a long pays size × mark price × a positive rate and receives at a negative one, once per funding time', async () => {
    const { userId, botId, worker } = await startGrid('long', 180);
    const { feed, paper } = worker;
    const before = await botRow(botId);
    // 08:00, rate +0.01 %, last trade 2001 but mark 2000: the long pays 0.09 × 2000 × 0.0001 = 0.018 USDT.
    feed.setPrice('ETHUSDT', 'future', '2001', at('2025-05-05T08:00:00Z'), '2000');
    await eventually(async () => expect(await fundingRows(botId)).toHaveLength(1));
    // 16:00, rate −0.02 %, mark 2010: it receives 0.09 × 2010 × 0.0002 = 0.03618 USDT.
    feed.setPrice('ETHUSDT', 'future', '2010', at('2025-05-05T16:00:00Z'), '2010');
    await eventually(async () => expect(await fundingRows(botId)).toHaveLength(2));
    // A tick between funding times books nothing more.
    feed.setPrice('ETHUSDT', 'future', '2005', at('2025-05-05T17:00:00Z'), '2005');
    await eventually(async () => expect(await fundingLedger(paper, userId)).toHaveLength(2));
    await worker.stop();

    const rows = await fundingRows(botId);
    expect(
      rows.map((r) => [
        r.clientOrderId,
        money(r.price).toFixed(),
        money(r.qty).toFixed(),
        money(r.pnl!).toFixed(),
      ]),
    ).toEqual([
      [`funding-${at('2025-05-05T08:00:00Z')}`, '2000', '0.09', '-0.018'],
      [`funding-${at('2025-05-05T16:00:00Z')}`, '2010', '0.09', '0.03618'],
    ]);
    // The paper account's futures wallet pays and receives the same amounts.
    expect(await fundingLedger(paper, userId)).toEqual([
      ['future', 'USDT', '-0.018'],
      ['future', 'USDT', '0.03618'],
    ]);
    // On the grid: its funding total and wallet balance (inside its total PnL), and its Loss and Profit Books.
    const after = await botRow(botId);
    expect(after.state.futures?.funding).toBe(0.01818);
    expect(money(after.state.quote).minus(before.state.quote).toFixed()).toBe('0.01818');
    expect(money(after.row.lossBook).minus(before.row.lossBook).toFixed()).toBe('-0.018');
    expect(money(after.row.profitBook).minus(before.row.profitBook).toFixed()).toBe('0.03618');
    expect(after.row.fillCount - before.row.fillCount).toBe(2);
    expect(after.state.futures?.pos).toBe(0.09);
    // The grid's page shows the funding beside its position.
    const view = await gridInfo({ db: handle.db, feed, clock: systemClock }, userId, botId);
    expect(view.position?.funding).toBe(0.01818);
  });

  it('a short receives size × mark price × a positive rate', async () => {
    const { userId, botId, worker } = await startGrid('short', 184);
    // 08:00, rate +0.01 %, mark 2000: the short receives 0.09 × 2000 × 0.0001 = 0.018 USDT.
    worker.feed.setPrice('ETHUSDT', 'future', '2000', at('2025-05-05T08:00:00Z'), '2000');
    await eventually(async () => expect(await fundingLedger(worker.paper, userId)).toHaveLength(1));
    await worker.stop();
    expect((await fundingRows(botId)).map((r) => money(r.pnl!).toFixed())).toEqual(['0.018']);
    expect(await fundingLedger(worker.paper, userId)).toEqual([['future', 'USDT', '0.018']]);
    expect((await botRow(botId)).state.futures?.funding).toBe(0.018);
  });
});
