import { botFills, bots } from '@gridbot/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBot } from '../../testing/bot-fixtures';
import { registerMember } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { type FillRow, fillsCsv } from './fills-export';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const member = (prefix: string) => registerMember(t, prefix);

const T0 = Date.UTC(2026, 2, 1, 12, 0, 0);

/** A bot with a buy and a sell (profit `pnl`), stopped on `stoppedDay`. */
async function tradedBot(userId: string, symbol: string, pnl: number, stoppedDay: string) {
  const id = await insertBot(t.handle.db, userId, { symbol });
  const fill = (
    seq: number,
    side: 'buy' | 'sell',
    price: string,
    quote: string,
    fee: string,
    p: string | null,
  ) => ({
    botId: id,
    userId,
    seq,
    side,
    grid: 1,
    price,
    qty: '0.5',
    quote,
    fee,
    pnl: p,
    timeMs: T0 + seq * 60_000,
    clientOrderId: `${id}-${seq}`,
  });
  await t.handle.db
    .insert(botFills)
    .values([
      fill(1, 'buy', '100', '50', '0.05', null),
      fill(2, 'sell', String(100 + pnl * 2), String(50 + pnl), '0.05', String(pnl)),
    ]);
  await t.handle.db
    .update(bots)
    .set({
      status: 'Stopped',
      stoppedAt: new Date(`${stoppedDay}T10:00:00Z`),
      profitBook: String(Math.max(pnl, 0)),
      lossBook: String(Math.min(pnl, 0)),
    })
    .where(eq(bots.id, id));
  const [row] = await t.handle.db.select().from(bots).where(eq(bots.id, id));
  const state = row!.engineState as { account: Record<string, number> };
  state.account = { ...state.account, bookedProfit: pnl, trades: 2 };
  await t.handle.db.update(bots).set({ engineState: state }).where(eq(bots.id, id));
  return id;
}

const csv = async (auth: { token: string }, url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${auth.token}` } });
  return {
    status: res.statusCode,
    type: res.headers['content-type'],
    disposition: res.headers['content-disposition'],
    body: res.body,
  };
};

describe('CSV export of fills', () => {
  it("exports a bot's fills, one row per fill, and nothing of another user's bot", async () => {
    const owner = await member('csv');
    const id = await tradedBot(owner.id, 'ETHUSDT', 2, '2026-03-02');
    const res = await csv(owner.auth, `/api/botfills.csv?botID=${id}`);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/csv/);
    expect(res.disposition).toMatch(/^attachment; filename="ETHUSDT-.*-fills\.csv"$/);
    expect(res.body.split('\r\n')).toEqual([
      'date,pair,side,price,quantity,quote,fee,fee_asset,pnl,exchange',
      '2026-03-01T12:01:00.000Z,ETHUSDT,BUY,100,0.5,50,0.05,USDT,,Paper',
      '2026-03-01T12:02:00.000Z,ETHUSDT,SELL,104,0.5,52,0.05,USDT,2,Paper',
      '',
    ]);
    const stranger = await member('csvx');
    expect((await csv(stranger.auth, `/api/botfills.csv?botID=${id}`)).status).toBe(404);
  });

  it('exports the history filtered by pair, stop date and outcome', async () => {
    const user = await member('hist');
    await tradedBot(user.id, 'ETHUSDT', 3, '2026-03-02');
    await tradedBot(user.id, 'BTCUSDT', -1, '2026-03-05');
    const pairs = async (query: string) =>
      (await csv(user.auth, `/api/historyfills.csv?type=multigrid${query}`)).body
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(',')[1])
        .sort(); // both bots traded at the same moments: their rows interleave in either order
    expect(await pairs('')).toEqual(['BTCUSDT', 'BTCUSDT', 'ETHUSDT', 'ETHUSDT']);
    expect(await pairs('&outcome=profit')).toEqual(['ETHUSDT', 'ETHUSDT']);
    expect(await pairs('&outcome=loss')).toEqual(['BTCUSDT', 'BTCUSDT']);
    expect(await pairs('&pair=BTC/USDT')).toEqual(['BTCUSDT', 'BTCUSDT']);
    expect(await pairs('&from=2026-03-03')).toEqual(['BTCUSDT', 'BTCUSDT']);
    expect(await pairs('&to=2026-03-02')).toEqual(['ETHUSDT', 'ETHUSDT']);
  });

  it('quotes fields a spreadsheet would read as formulas or split', () => {
    const out = fillsCsv(
      [
        {
          timeMs: T0,
          symbol: '=HYPERLINK("x")',
          side: 'buy',
          price: '1',
          qty: '1',
          quote: '1',
          fee: '0',
          feeAsset: 'USDT',
          feePaid: null,
          pnl: '-1',
        },
      ],
      'Bybit',
    );
    expect(out.split('\r\n')[1]).toBe(
      `2026-03-01T12:00:00.000Z,"'=HYPERLINK(""x"")",BUY,1,1,1,0,USDT,-1,Bybit`,
    );
  });

  it('names on each row the exchange its bot traded on, and the given one where none was recorded', () => {
    const fill: FillRow = {
      timeMs: T0,
      symbol: 'ETHUSDT',
      side: 'sell',
      price: '2000',
      qty: '0.1',
      quote: '200',
      fee: '0.2',
      feeAsset: 'USDT',
      feePaid: null,
      pnl: '1.5',
    };
    const rows = fillsCsv([{ ...fill, venue: 'binance' }, { ...fill, venue: null }, fill], 'OKX').split(
      '\r\n',
    );
    expect(rows.slice(1, 4).map((row) => row.split(',').at(-1))).toEqual(['Binance', 'OKX', 'OKX']);
  });

  it('names the coin a spot buy paid its fee in, with the amount charged in it', async () => {
    const owner = await member('coinfee');
    const id = await insertBot(t.handle.db, owner.id, { symbol: 'ETHUSDT' });
    await t.handle.db.insert(botFills).values({
      botId: id,
      userId: owner.id,
      seq: 1,
      side: 'buy',
      grid: 1,
      price: '2000',
      qty: '0.5',
      quote: '1000',
      fee: '1',
      feeAsset: 'ETH',
      feePaid: '0.0005',
      pnl: null,
      timeMs: T0,
      clientOrderId: `${id}-1`,
    });
    const res = await csv(owner.auth, `/api/botfills.csv?botID=${id}`);
    expect(res.body.split('\r\n')[1]).toBe(
      '2026-03-01T12:00:00.000Z,ETHUSDT,BUY,2000,0.5,1000,0.0005,ETH,,Paper',
    );
  });
});
