import { botFills, bots } from '@gridbot/db';
import type { RangeState } from '@gridbot/engine';
import {
  type FakeBinanceBook,
  FakeBinanceServer,
  type Fault,
  followPrices,
  TIMEOUT_UNKNOWN,
} from '@gridbot/exchange/testing';
import { money, rangeStrategySchema } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientOrderIdOf } from '../modules/bots';
import { insertSession, insertUserWithKeys } from '../testing/bot-fixtures';
import { crashTestContext } from '../testing/crash-harness';
import { freePort } from '../testing/free-port';
import { insertRangeBot } from '../testing/range-fixtures';

// A spot range grid (docs/trading-rules.md §2.6) on the Binance double while the server, run as its own
// process with EXCHANGE=binance, is killed with SIGKILL again and again. The double follows the server's
// replayed market (`followPrices`, every 20 ms, the replay at 5000× so that the double trails the server's
// feed by less than one of its ticks): the replay's moves fill the grid's resting orders on the double, often
// while no server runs, since each restart replays from the same candle again. The double outlives every
// kill, as Binance outlives a crash of the worker, and injects faults of Binance's docs into the order
// requests, look-ups and cancels. After each restart the runtime matches the grid's orders to the double's
// open orders by client order id (§2.6 "Live", §3). PostgreSQL only, like the other crash tests.
const KILLS = 5;
const USDT = 20_000;
const INVESTMENT = 1000;
const LEVELS = 10;
/** Resting orders the replay must have filled for the run to test fills across kills. */
const MIN_LIMIT_FILLS = 4;

/** Faults an order request or a look-up meets (the double's `Fault`, after Binance's documentation). */
const FAULTS: Fault[] = [
  { kind: 'executedThenError', status: 503, body: TIMEOUT_UNKNOWN },
  { kind: 'executedThenDrop' },
  { kind: 'resetBefore' },
  {
    kind: 'answer',
    status: 502,
    body: { code: -1001, msg: 'Internal error; unable to process your request.' },
  },
];
const TARGETS = ['POST /api/v3/order', 'GET /api/v3/order', 'DELETE /api/v3/order'];
const t = crashTestContext();

/** Seeded pseudo-random numbers, so a failing run can be replayed. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

type BookOrder = FakeBinanceBook['orders'][number];
type BookTrade = FakeBinanceBook['trades'][number];

/** What the kills left: the grid's state and order book, and the double's orders, trades and balances. */
interface Outcome {
  botId: string;
  state: RangeState;
  fills: (typeof botFills.$inferSelect)[];
  orders: BookOrder[];
  open: BookOrder[];
  trades: BookTrade[];
  balances: { eth: string; usdt: string };
  faultsMet: number;
}
let outcome: Outcome;

/** The grid on the double through the kills (run once; the checks below read what it left). */
async function runKills(): Promise<Outcome> {
  const { db } = t.handle;
  const rand = random(7);
  const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
  fake.book.spot.set('USDT', { free: money(USDT), locked: money(0) });
  // The replay's first price (ETHUSDT 15m, its 500th candle opens at 1892.6): the grid's start buys there.
  fake.setPrice('ETHUSDT', 'spot', '1892.6');
  const userId = await insertUserWithKeys(db, t.secrets);
  const token = await insertSession(db, userId);
  // 1855–1895 in 10 levels of 4 USDT (≥ twice the 0.1 % fee at 1895, 3.79).
  const params = rangeStrategySchema.parse({ type: 'range', lower: 1855, upper: 1895, grids: LEVELS });
  const { botId } = await insertRangeBot(db, userId, {
    symbol: 'ETHUSDT',
    market: 'spot',
    params,
    investment: INVESTMENT,
  });
  const mine = clientOrderIdOf(botId, 1).slice(0, -1);
  const port = await freePort();
  // The server's live price; while it is down the double keeps its last one.
  let following = true;
  const follower = followPrices(
    fake,
    [{ symbol: 'ETHUSDT', market: 'spot' }],
    async () => {
      if (!following) throw new Error('the double stands still');
      const res = await fetch(`http://127.0.0.1:${port}/api/liveprice`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pair: 'ETHUSDT' }),
      });
      if (!res.ok) throw new Error(`/api/liveprice ${res.status}`);
      return String(((await res.json()) as { price: string | number }).price);
    },
    20,
  );
  // Rarer than the requests: a fault sends the bot to a reload 5 s later, longer than most runs here.
  let injected = 0;
  const faults = setInterval(() => {
    if (rand() < 0.7) return;
    const target = TARGETS[Math.floor(rand() * TARGETS.length)]!;
    if (fake.faultPending(target)) return;
    fake.inject(target, FAULTS[injected % FAULTS.length]!);
    injected += 1;
  }, 1000);
  const stateOf = async () => {
    const [row] = await db.select().from(bots).where(eq(bots.id, botId));
    return row!.engineState as unknown as RangeState;
  };
  const limitFills = () =>
    fake.book.orders.filter(
      (o) => o.clientOrderId.startsWith(mine) && o.type === 'LIMIT' && o.executedQty.gt(0),
    ).length;
  const openOfGrid = () =>
    fake.book.openOrders('spot', 'ETHUSDT').filter((o) => o.clientOrderId.startsWith(mine));
  try {
    await t.harness.killRepeatedly(port, KILLS, {
      env: { EXCHANGE: 'binance', BINANCE_REST_URL: fake.url },
      speed: 5000,
      // Each run trades for its time: a launch that reconciles an order in doubt waits out its window first.
      runFrom: 'launched',
      runMs: () => 2000 + rand() * 2000,
      // A run whose replay reached few levels before its kill: more kills, until resting orders have filled.
      lacking: () => limitFills() < MIN_LIMIT_FILLS,
      maxKills: KILLS * 2,
      progress: async () => `${limitFills()} resting orders filled, ${injected} faults injected`,
      // The double stands still from here: the last run books what filled while no server ran, and its
      // resting orders are then the grid's for good.
      beforeLast: async () => {
        clearInterval(faults);
        following = false;
      },
      // Until the grid's orders are the double's open ones (a fault left pending meets the last run too, and
      // the bot is reloaded 5 s after it).
      settle: async () => {
        const deadline = Date.now() + 30_000;
        while (Date.now() < deadline) {
          const s = await stateOf();
          const held = s.orders.map((o) => clientOrderIdOf(botId, o.seq)).sort();
          const open = openOfGrid()
            .map((o) => o.clientOrderId)
            .sort();
          if (s.queue.length === 0 && s.pending === null && held.join() === open.join()) return;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      },
    });
  } finally {
    clearInterval(faults);
    await follower.stop();
    await fake.close();
  }
  const eth = fake.book.balance('ETH');
  const usdt = fake.book.balance('USDT');
  return {
    botId,
    state: await stateOf(),
    fills: await db.select().from(botFills).where(eq(botFills.botId, botId)),
    orders: fake.book.orders.filter((o) => o.clientOrderId.startsWith(mine)),
    open: openOfGrid(),
    trades: fake.book.trades,
    balances: { eth: eth.free.plus(eth.locked).toFixed(), usdt: usdt.free.plus(usdt.locked).toFixed() },
    faultsMet: fake.requests.filter((r) => r.path === '/api/v3/order' && r.outcome !== 'answered').length,
  };
}

describe('SIGKILL of the server while a range grid rests orders on the Binance double', () => {
  // Five start-ups, kills and a last run: about 80–95 s on a loaded two-core host, up to ten when few levels
  // filled.
  beforeAll(async () => {
    outcome = await runKills();
  }, 300_000);

  it(`places each order once and books each fill once with its fee over ${KILLS} kills`, () => {
    const { state, fills, orders, trades, faultsMet } = outcome;
    expect(state.status).toBe('Live');
    expect(faultsMet).toBeGreaterThan(0);
    // No order placed twice for one intent: one order on the double per client order id.
    const ids = orders.map((o) => o.clientOrderId);
    expect(new Set(ids).size).toBe(ids.length);
    // Fills came in: the start's market buy and resting orders the replay reached.
    const executed = orders.filter((o) => o.executedQty.gt(0));
    expect(executed.filter((o) => o.type === 'LIMIT').length).toBeGreaterThanOrEqual(MIN_LIMIT_FILLS);
    // Every executed order is one row of the grid's order book, with the fee its trades were charged.
    expect(fills).toHaveLength(executed.length);
    for (const order of executed) {
      const booked = fills.filter((f) => f.clientOrderId === order.clientOrderId);
      expect(booked).toHaveLength(1);
      const own = trades.filter((tr) => tr.orderId === order.orderId && tr.market === 'spot');
      const commission = own.reduce((sum, tr) => sum.plus(tr.commission), money(0));
      expect(booked[0]!.feeAsset).toBe(order.side === 'BUY' ? 'ETH' : 'USDT');
      expect(money(booked[0]!.feePaid!).toFixed(8)).toBe(commission.toFixed(8));
      expect(money(booked[0]!.qty).toFixed(8)).toBe(order.executedQty.toFixed(8));
      expect(money(booked[0]!.quote).toFixed(8)).toBe(order.cumQuote.toFixed(8));
    }
  });

  it('rests on the double exactly the orders the grid holds, never two on one level', () => {
    const { botId, state, open } = outcome;
    const levels = state.orders.map((o) => o.level);
    expect(new Set(levels).size).toBe(levels.length);
    const rest = (id: string, side: string, price: unknown, qty: unknown) =>
      `${id} ${side} ${money(String(price)).toFixed(2)} ${money(String(qty)).toFixed(8)}`;
    expect(open.map((o) => rest(o.clientOrderId, o.side.toLowerCase(), o.price, o.origQty)).sort()).toEqual(
      state.orders.map((o) => rest(clientOrderIdOf(botId, o.seq), o.side, o.price, o.qty)).sort(),
    );
  });

  it('holds in its books the coin and USDT the double holds for it', () => {
    const { state, balances } = outcome;
    // What rests on the book is locked, still the account's.
    expect(money(state.base).toFixed(8)).toBe(money(balances.eth).toFixed(8));
    // USDT to the micro-dollar: the engine's sums and the double's round their last digit apart.
    expect(money(state.quote).toFixed(6)).toBe(
      money(balances.usdt)
        .minus(USDT - INVESTMENT)
        .toFixed(6),
    );
  });

  // An order whose intent was written but not sent before a kill (or a fault's reload) never rested on the
  // double while the price moved on: the restart gives it up and lays the free levels out by the grid's coin
  // (`relayLost`), so fills beyond it leave neither two levels empty nor a sell below a buy.
  it('rests one order on every level but the empty one, buys below it and sells above (§2.6)', () => {
    const { state } = outcome;
    const levels = state.orders.map((o) => o.level).sort((a, b) => a - b);
    expect(levels).toHaveLength(LEVELS);
    const empty = [...Array(LEVELS + 1).keys()].find((k) => !levels.includes(k))!;
    for (const o of state.orders) expect(o.side).toBe(o.level < empty ? 'buy' : 'sell');
  });
});
