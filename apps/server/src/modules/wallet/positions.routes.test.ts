import { bots } from '@gridbot/db';
import {
  type HistoryRow,
  walletMessages as m,
  positionMessages as pm,
  positionTradedByBotMessage,
} from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBot } from '../../testing/bot-fixtures';
import { call, registerMember } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { PAPER_ACCOUNT_KEYS } from '../exchange';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Listed {
  symbol: string;
  entryPrice: string;
  quantity: string;
  leverage: number;
  margin: string;
  liquidationPrice: string;
  unrealizedPnl: string | null;
  bot: { botId: string; name: string; status: string } | null;
}

async function member(prefix: string) {
  const { auth, id } = await registerMember(t, prefix);
  return { auth, id, exchange: t.deps.exchanges.forUser(id, PAPER_ACCOUNT_KEYS) };
}

/** Opens a long on the member's paper futures account, as a bot's buys would. */
async function openLong(
  user: Awaited<ReturnType<typeof member>>,
  symbol: string,
  qty: string,
  leverage: number,
) {
  const wallet = await user.exchange.balances('future');
  if (Number(wallet.find((b) => b.asset === 'USDT')?.free ?? 0) < 500)
    await user.exchange.transfer('spot_to_future', '1000');
  await user.exchange.setLeverage(symbol, leverage);
  await user.exchange.placeOrder({
    market: 'future',
    symbol,
    side: 'buy',
    type: 'market',
    clientOrderId: `seed-${symbol}`,
    quantity: qty,
  });
}

/** A futures bot stopped without a sale: its lot stays in its state, and the position on the exchange. */
async function stoppedWithLot(userId: string, symbol: string, qty: number) {
  const botId = await insertBot(t.handle.db, userId, { symbol, market: 'future', leverage: 3 });
  const [row] = await t.handle.db.select().from(bots).where(eq(bots.id, botId));
  const state = row!.engineState as Record<string, unknown>;
  const lot = {
    id: 1,
    grid: 1,
    price: 3300,
    qty,
    quote: qty * 3300,
    fee: 0,
    margin: (qty * 3300) / 3,
    timeMs: 0,
  };
  await t.handle.db
    .update(bots)
    .set({
      status: 'Stopped',
      stoppedAt: new Date(),
      engineState: {
        ...state,
        status: 'Stopped',
        lots: [{ ...lot, tpPct: 1, tpDownPct: 0, tpPrice: 3333, armed: false, high: 0 }],
      },
      stateVersion: row!.stateVersion + 1,
    })
    .where(eq(bots.id, botId));
  return botId;
}

const list = async (auth: { token: string }) =>
  (await call(t, 'GET', '/api/positions', undefined, auth)).body.positions as Listed[];

describe('Positions', () => {
  it('lists every futures position with margin, liquidation price, PnL and the bot it belongs to, or none', async () => {
    const user = await member('poslist');
    await openLong(user, 'ETHUSDT', '0.09', 3);
    await openLong(user, 'BTCUSDT', '0.002', 5);
    const botId = await stoppedWithLot(user.id, 'ETHUSDT', 0.09);

    const positions = await list(user.auth);
    expect(positions.map((p) => p.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
    const [btc, eth] = positions;
    expect(btc).toMatchObject({ quantity: '0.002', leverage: 5, bot: null });
    expect(eth).toMatchObject({
      quantity: '0.09',
      leverage: 3,
      bot: { botId, name: "ETHUSDT Future · Multigrid 'Simple'", status: 'Stopped' },
    });
    expect(Number(eth!.margin)).toBeGreaterThan(0);
    expect(Number(eth!.liquidationPrice)).toBeGreaterThan(0);
    expect(eth!.unrealizedPnl).not.toBeNull();
  });

  it("never shows another user's positions", async () => {
    const owner = await member('posowner');
    await openLong(owner, 'ETHUSDT', '0.05', 2);
    const other = await member('posother');
    expect(await list(other.auth)).toEqual([]);
    const close = await call(t, 'POST', '/api/closeposition', { symbol: 'ETHUSDT' }, other.auth);
    expect(close).toMatchObject({ status: 404, body: { message: pm.noPosition } });
    expect((await list(owner.auth)).map((p) => p.symbol)).toEqual(['ETHUSDT']);
  });

  it('closes a position with a reduce-only market sell and gives its margin back to the futures wallet', async () => {
    const user = await member('posclose');
    await openLong(user, 'ETHUSDT', '0.09', 3);
    const [position] = await list(user.auth);
    const freeBefore = Number((await user.exchange.usdtFree()).future);

    const closed = await call(t, 'POST', '/api/closeposition', { symbol: 'ethusdt' }, user.auth);
    expect(closed).toMatchObject({
      status: 200,
      body: { message: pm.positionClosed, order: { quantity: '0.09' } },
    });
    expect(await list(user.auth)).toEqual([]);
    const freeAfter = Number((await user.exchange.usdtFree()).future);
    // The margin comes back, give or take the PnL and the sale's fee.
    expect(freeAfter - freeBefore).toBeCloseTo(Number(position!.margin), -1);
    const again = await call(t, 'POST', '/api/closeposition', { symbol: 'ETHUSDT' }, user.auth);
    expect(again).toMatchObject({ status: 404, body: { message: pm.noPosition } });
  });

  it('closes a short with a reduce-only market buy, and lists it as a short until then', async () => {
    const user = await member('posshort');
    await user.exchange.transfer('spot_to_future', '1000');
    await user.exchange.setLeverage('ETHUSDT', 3);
    await user.exchange.placeOrder({
      market: 'future',
      symbol: 'ETHUSDT',
      side: 'sell',
      type: 'market',
      clientOrderId: 'seed-short',
      quantity: '0.09',
    });
    expect(await list(user.auth)).toMatchObject([{ symbol: 'ETHUSDT', side: 'short', quantity: '0.09' }]);
    const closed = await call(t, 'POST', '/api/closeposition', { symbol: 'ETHUSDT' }, user.auth);
    expect(closed).toMatchObject({
      status: 200,
      body: { message: pm.positionClosed, order: { quantity: '0.09' } },
    });
    expect(await list(user.auth)).toEqual([]);
    expect(await user.exchange.positions()).toEqual([]);
  });

  it("books the close of a stopped bot's position on the account, apart from the bot's figures", async () => {
    const user = await member('posapart');
    await openLong(user, 'ETHUSDT', '0.09', 3);
    const botId = await stoppedWithLot(user.id, 'ETHUSDT', 0.09);
    const [position] = await list(user.auth);
    expect(position!.bot?.botId).toBe(botId);
    // The bot's own figures on its History row.
    const historyRow = async () => {
      const rows = (await call(t, 'GET', '/api/bothistory', undefined, user.auth)).body.rows as HistoryRow[];
      const row = rows.find((r) => r.id === botId)!;
      const { investment, profit, lossbook, totalpnl, roi, trades, botstoptime } = row;
      return { investment, profit, lossbook, totalpnl, roi, trades, botstoptime };
    };
    const before = await historyRow();
    expect(before).toMatchObject({ trades: 0, profit: 0 });
    const freeBefore = Number((await user.exchange.usdtFree()).future);

    const closed = await call(t, 'POST', '/api/closeposition', { symbol: 'ETHUSDT' }, user.auth);
    expect(closed.status).toBe(200);
    // The old bot's page and History row keep what the bot itself did: no trade, profit or PnL of the
    // close, and no fill in its export.
    expect(await historyRow()).toEqual(before);
    const fills = await t.app.inject({
      method: 'GET',
      url: `/api/botfills.csv?botID=${botId}`,
      headers: { authorization: `Bearer ${user.auth.token}` },
    });
    expect(fills.body.trim().split('\n')).toHaveLength(1);
    // The account books it: the margin comes back with the close's PnL, (close − entry) × 0.09, less the
    // taker fee of 0.05 % on 0.09 × the close price.
    const close = Number((closed.body.order as { averagePrice: string }).averagePrice);
    const entry = Number(position!.entryPrice);
    const booked = Number(position!.margin) + 0.09 * (close - entry) - 0.09 * close * 0.0005;
    const freeAfter = Number((await user.exchange.usdtFree()).future);
    expect(freeAfter - freeBefore).toBeCloseTo(booked, 6);
  });

  it("shows a stopped bot's position closed from here as closed in its History row, at the close's price", async () => {
    const user = await member('poshistory');
    await openLong(user, 'ETHUSDT', '0.09', 3);
    const botId = await stoppedWithLot(user.id, 'ETHUSDT', 0.09);
    await t.handle.db.update(bots).set({ closedPrice: '3300' }).where(eq(bots.id, botId));
    const historyRow = async () => {
      const rows = (await call(t, 'GET', '/api/bothistory', undefined, user.auth)).body.rows as HistoryRow[];
      return rows.find((r) => r.id === botId)!;
    };
    const before = await historyRow();
    expect(before).toMatchObject({ positionLeftOpen: true, stopAt: null });

    const closed = await call(t, 'POST', '/api/closeposition', { symbol: 'ETHUSDT' }, user.auth);
    expect(closed.status).toBe(200);
    const close = Number((closed.body.order as { averagePrice: string }).averagePrice);
    const after = await historyRow();
    expect(after).toMatchObject({ positionLeftOpen: false, stopAt: close });
    // The bot's PnL stays what the bot made, valued at its stop: the close is the account's.
    expect({ totalpnl: after.totalpnl, roi: after.roi, profit: after.profit }).toEqual({
      totalpnl: before.totalpnl,
      roi: before.roi,
      profit: before.profit,
    });
  });

  it("refuses to close a running bot's position, naming the bot, and closes nothing", async () => {
    const user = await member('posrunning');
    await openLong(user, 'ETHUSDT', '0.09', 3);
    await insertBot(t.handle.db, user.id, { symbol: 'ETHUSDT', market: 'future', leverage: 3 });
    const refused = await call(t, 'POST', '/api/closeposition', { symbol: 'ETHUSDT' }, user.auth);
    expect(refused).toMatchObject({
      status: 409,
      body: { message: positionTradedByBotMessage('ETHUSDT', "ETHUSDT Future · Multigrid 'Simple'") },
    });
    expect((await list(user.auth)).map((p) => p.bot?.status)).toEqual(['Live']);
  });

  it('answers 401 without a session and 400 for an unknown pair', async () => {
    expect((await call(t, 'GET', '/api/positions')).status).toBe(401);
    expect((await call(t, 'POST', '/api/closeposition', { symbol: 'ETHUSDT' })).status).toBe(401);
    const user = await member('posbad');
    const bad = await call(t, 'POST', '/api/closeposition', { symbol: 'NOPEUSDT' }, user.auth);
    expect(bad).toMatchObject({ status: 400, body: { message: m.pairUnknown } });
  });

  it('says what holds the futures USDT a transfer cannot move: the margin of the open position', async () => {
    const user = await member('posxfer');
    await openLong(user, 'ETHUSDT', '0.09', 3);
    const [position] = await list(user.auth);
    const total = (await user.exchange.balances('future')).find((b) => b.asset === 'USDT')!;
    const all = Number(total.free) + Number(total.locked);
    const refused = await call(
      t,
      'POST',
      '/api/transferfuturestospot',
      { from: 'Futures', to: 'Spot', amount: String(all) },
      user.auth,
    );
    expect(refused).toMatchObject({
      status: 400,
      body: {
        message: m.amountExceedsTransferable,
        transferable: total.free,
        heldBy: [`${position!.margin} USDT margin of the open ETHUSDT position`],
      },
    });
  });
});
