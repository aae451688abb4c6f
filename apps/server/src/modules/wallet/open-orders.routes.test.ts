import { bots } from '@gridbot/db';
import type { PlaceOrderInput } from '@gridbot/exchange';
import { type OpenOrderView, openOrderMessages as om, orderOfRunningBotMessage } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBot } from '../../testing/bot-fixtures';
import { call, registerMember } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { clientOrderIdOf } from '../bots';
import { PAPER_ACCOUNT_KEYS } from '../exchange';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function member(prefix: string) {
  const { auth, id } = await registerMember(t, prefix);
  return { auth, id, exchange: t.deps.exchanges.forUser(id, PAPER_ACCOUNT_KEYS) };
}
type Member = Awaited<ReturnType<typeof member>>;

/** A limit order far from the price, so it rests on the member's paper account. */
const rest = (user: Member, order: Omit<PlaceOrderInput, 'type'>) =>
  user.exchange.placeOrder({ ...order, type: 'limit' });

const list = async (auth: { token: string }) =>
  (await call(t, 'GET', '/api/openorders', undefined, auth)).body.orders as OpenOrderView[];

const stop = (botId: string) =>
  t.handle.db.update(bots).set({ status: 'Stopped', stoppedAt: new Date() }).where(eq(bots.id, botId));

describe('Open orders', () => {
  it("lists spot and futures orders with the bot each belongs to: a running one, a stopped one's, none", async () => {
    const user = await member('oolist');
    await user.exchange.transfer('spot_to_future', '200');
    const running = await insertBot(t.handle.db, user.id, { symbol: 'ETHUSDT', market: 'spot' });
    const stopped = await insertBot(t.handle.db, user.id, { symbol: 'BTCUSDT', market: 'future' });
    await stop(stopped);
    await user.exchange.setLeverage('BTCUSDT', 2);
    // The bots' orders carry their ids (bot id + sequence); the third was placed on the exchange's own site.
    await rest(user, {
      market: 'spot',
      symbol: 'ETHUSDT',
      side: 'buy',
      clientOrderId: clientOrderIdOf(running, 7),
      price: '1000',
      quantity: '0.05',
    });
    await rest(user, {
      market: 'future',
      symbol: 'BTCUSDT',
      side: 'buy',
      clientOrderId: clientOrderIdOf(stopped, 35),
      price: '10000',
      quantity: '0.011',
    });
    await rest(user, {
      market: 'spot',
      symbol: 'ETHUSDT',
      side: 'buy',
      clientOrderId: 'web_placed_by_hand',
      price: '900',
      quantity: '0.01',
    });

    const orders = await list(user.auth);
    const bySymbolPrice = (symbol: string, price: string) =>
      orders.find((o) => o.symbol === symbol && o.price === price);
    expect(orders).toHaveLength(3);
    expect(bySymbolPrice('ETHUSDT', '1000')).toMatchObject({
      market: 'spot',
      side: 'buy',
      quantity: '0.05',
      filledQuantity: '0',
      clientOrderId: clientOrderIdOf(running, 7),
      bot: { botId: running, name: "ETHUSDT Spot · Multigrid 'Simple'", kind: 'multigrid', status: 'Live' },
    });
    expect(bySymbolPrice('BTCUSDT', '10000')).toMatchObject({
      market: 'future',
      side: 'buy',
      quantity: '0.011',
      filledQuantity: '0',
      bot: { botId: stopped, name: "BTCUSDT Future · Multigrid 'Simple'", status: 'Stopped' },
    });
    expect(bySymbolPrice('ETHUSDT', '900')).toMatchObject({ quantity: '0.01', bot: null });
    for (const o of orders) expect(o.createdMs).toBeGreaterThan(0);
  });

  it("never shows another user's orders, nor names another user's bot", async () => {
    const owner = await member('ooowner');
    const botId = await insertBot(t.handle.db, owner.id, { symbol: 'ETHUSDT', market: 'spot' });
    const cid = clientOrderIdOf(botId, 1);
    const other = await member('ooother');
    // The other user's order carries an id naming the owner's bot: it is still nobody's bot for them.
    await rest(other, {
      market: 'spot',
      symbol: 'ETHUSDT',
      side: 'buy',
      clientOrderId: cid,
      price: '1000',
      quantity: '0.01',
    });
    expect(await list(owner.auth)).toEqual([]);
    expect((await list(other.auth)).map((o) => o.bot)).toEqual([null]);
  });

  it("cancels an order of a stopped bot or of none, refuses a running bot's, and finds no other user's", async () => {
    const user = await member('oocancel');
    const running = await insertBot(t.handle.db, user.id, { symbol: 'ETHUSDT', market: 'spot' });
    const stopped = await insertBot(t.handle.db, user.id, { symbol: 'BTCUSDT', market: 'spot' });
    await stop(stopped);
    const order = (clientOrderId: string, symbol = 'ETHUSDT') =>
      rest(user, {
        market: 'spot',
        symbol,
        side: 'buy',
        clientOrderId,
        price: symbol === 'ETHUSDT' ? '1000' : '10000',
        quantity: symbol === 'ETHUSDT' ? '0.01' : '0.001',
      });
    await order(clientOrderIdOf(running, 1));
    await order(clientOrderIdOf(stopped, 1), 'BTCUSDT');
    await order('web_by_hand');
    const cancel = (body: object, auth = user.auth) => call(t, 'POST', '/api/cancelorder', body, auth);

    const refused = await cancel({
      market: 'spot',
      symbol: 'ETHUSDT',
      clientOrderId: clientOrderIdOf(running, 1),
    });
    expect(refused).toMatchObject({
      status: 409,
      body: { message: orderOfRunningBotMessage('ETHUSDT', "ETHUSDT Spot · Multigrid 'Simple'") },
    });

    // Another user cannot cancel the user's order: their account holds no such order.
    const other = await member('oocancelother');
    const foreign = await cancel(
      { market: 'spot', symbol: 'ETHUSDT', clientOrderId: 'web_by_hand' },
      other.auth,
    );
    expect(foreign).toMatchObject({ status: 404, body: { message: om.noOrder } });
    expect(await list(user.auth)).toHaveLength(3);

    const ofStopped = await cancel({
      market: 'spot',
      symbol: 'btcusdt',
      clientOrderId: clientOrderIdOf(stopped, 1),
    });
    expect(ofStopped).toMatchObject({ status: 200, body: { message: om.orderCanceled } });
    const ofNone = await cancel({ market: 'spot', symbol: 'ETHUSDT', clientOrderId: 'web_by_hand' });
    expect(ofNone).toMatchObject({ status: 200, body: { message: om.orderCanceled } });
    expect((await list(user.auth)).map((o) => o.clientOrderId)).toEqual([clientOrderIdOf(running, 1)]);

    const again = await cancel({ market: 'spot', symbol: 'ETHUSDT', clientOrderId: 'web_by_hand' });
    expect(again).toMatchObject({ status: 404, body: { message: om.noOrder } });
  });

  it('answers 401 without a session and 400 for a malformed order', async () => {
    expect((await call(t, 'GET', '/api/openorders')).status).toBe(401);
    expect(
      (await call(t, 'POST', '/api/cancelorder', { market: 'spot', symbol: 'ETHUSDT', clientOrderId: 'x' }))
        .status,
    ).toBe(401);
    const user = await member('oobad');
    const bad = await call(
      t,
      'POST',
      '/api/cancelorder',
      { market: 'margin', symbol: 'ETHUSDT', clientOrderId: 'x' },
      user.auth,
    );
    expect(bad.status).toBe(400);
  });
});
