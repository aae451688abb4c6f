/**
 * A Live futures range grid that may go short, traded by the runtime on one venue's double (docs/trading-rules.md
 * §2.6, §3): ETHUSDT, 500 USDT at 2× on 1900–2100 in 4 levels, started at 2000. The venue's double is reached
 * through `ShortsDouble`, so the same steps and checks run on every venue the platform trades shorts on.
 */
import { botCommands, botFills, bots, type Db } from '@gridbot/db';
import type { Exchange } from '@gridbot/exchange';
import { BybitExchange } from '@gridbot/exchange/bybit';
import { clientOrderIdOfClOrdId, OkxExchange } from '@gridbot/exchange/okx';
import {
  eventually,
  FakeBinanceServer,
  FakeBybitServer,
  FakeOkxServer,
  ManualFeed,
  virtualBudget,
} from '@gridbot/exchange/testing';
import { type Money, money, rangeStrategySchema } from '@gridbot/shared';
import { asc, eq, ne } from 'drizzle-orm';
import { expect } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import type { BotSupervisor } from '../worker/bot-supervisor';
import { binanceClientOf, supervisorOnBinance } from './binance-client';
import { insertUserWithKeys } from './bot-fixtures';
import { insertRangeBot } from './range-fixtures';

/** A venue's double as these grids use it, on the ETHUSDT perpetual. */
export interface ShortsDouble {
  /** Our adapter on the double, set up at 2× isolated. */
  exchange: Exchange;
  /** Moves the double's ETHUSDT futures price: resting orders it reaches fill (up to `volume`, where given). */
  setPrice(price: string, volume?: string): void;
  /** The double's one-way position in ETH, negative for a short, '0' when flat. */
  position(): string;
  /** The double's open ETHUSDT futures orders. */
  openOrders(): number;
  /** The last market order the adapter sent, as the venue's parameters say it. */
  lastMarketOrder(): { side: 'buy' | 'sell'; quantity: string; reduceOnly: boolean } | undefined;
  /** The fee of each order the double executed under a client order id (the runtime's id). */
  executedFees(clientOrderId: string): Money[];
  /** For each order id the adapter sent, how many orders the double executed under it. */
  executionsPerSentId(): number[];
  close(): Promise<void>;
}

/**
 * The Binance double in USDⓈ-M one-way mode, isolated at 2×, 1000 USDT in the futures wallet, ETHUSDT at 2000
 * (resting orders fill as makers at 0.02 %, market orders as takers at 0.05 %).
 */
export async function binanceShorts(): Promise<{ fake: FakeBinanceServer; double: ShortsDouble }> {
  const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
  fake.setPrice('ETHUSDT', 'future', '2000');
  fake.book.futuresWallet = money('1000');
  const exchange = binanceClientOf(fake);
  await exchange.setLeverage('ETHUSDT', 2);
  const double: ShortsDouble = {
    exchange,
    setPrice: (price, volume) => fake.setPrice('ETHUSDT', 'future', price, volume),
    position: () => fake.book.positions.get('ETHUSDT')?.qty.toFixed() ?? '0',
    openOrders: () => fake.book.openOrders('future', 'ETHUSDT').length,
    lastMarketOrder: () => {
      const sent = fake
        .orderPosts('future')
        .filter((r) => r.params.type === 'MARKET')
        .at(-1)?.params;
      return (
        sent && {
          side: sent.side === 'BUY' ? 'buy' : 'sell',
          quantity: String(sent.quantity),
          reduceOnly: sent.reduceOnly === 'true',
        }
      );
    },
    // An order's fee is the commission of its trades ([futures] "Account Trade List").
    executedFees: (id) =>
      fake.book.executedWithId(id).map((order) =>
        fake.book
          .futuresTrades('ETHUSDT')
          .filter((t) => t.orderId === order.orderId)
          .reduce((sum, t) => sum.plus(t.commission), money(0)),
      ),
    executionsPerSentId: () =>
      [...new Set(fake.orderPosts('future').map((r) => String(r.params.newClientOrderId)))].map(
        (id) => fake.book.executedWithId(id).length,
      ),
    close: () => fake.close(),
  };
  return { fake, double };
}

const noDelay = { sleep: async () => {}, random: () => 0.5 };

/**
 * The Bybit double, a classic account in one-way mode, isolated at 2×, 1000 USDT in the Contract wallet, ETHUSDT
 * at 2000 (every linear fill pays 0.05 %). The adapter's recvWindow is 2 s, so an unanswered order is known absent
 * 3 s after.
 */
export async function bybitShorts(): Promise<{ fake: FakeBybitServer; double: ShortsDouble }> {
  const fake = await FakeBybitServer.start({ apiKey: 'k', secret: 's' });
  fake.setPrice('ETHUSDT', 'future', '2000');
  fake.book.contractCash = money('1000');
  const exchange = new BybitExchange({
    apiKey: 'k',
    secret: 's',
    baseUrl: fake.url,
    enableRateLimit: false,
    retry: noDelay,
    budget: virtualBudget().budget,
    recvWindowMs: 2_000,
  });
  await exchange.setLeverage('ETHUSDT', 2);
  const executed = (id: string) => fake.book.executedWithLinkId(id);
  const double: ShortsDouble = {
    exchange,
    setPrice: (price) => fake.setPrice('ETHUSDT', 'future', price),
    // [position] side "`Buy`: long, `Sell`: short", size "always positive".
    position: () => {
      const p = fake.book.positions.get('ETHUSDT');
      return p ? (p.side === 'Sell' ? p.size.negated() : p.size).toFixed() : '0';
    },
    openOrders: () => fake.book.realtime('linear', { symbol: 'ETHUSDT' }).length,
    lastMarketOrder: () => {
      const sent = fake
        .orderPosts()
        .filter((r) => r.params.category === 'linear' && r.params.orderType === 'Market')
        .at(-1)?.params;
      return (
        sent && {
          side: sent.side === 'Buy' ? 'buy' : 'sell',
          quantity: String(sent.qty),
          reduceOnly: sent.reduceOnly === true,
        }
      );
    },
    // An order's fee is the execFee of its Trade executions ([execution]).
    executedFees: (id) =>
      executed(id).map((order) =>
        fake.book.executions
          .filter((e) => e.orderId === order.orderId && e.execType === 'Trade')
          .reduce((sum, e) => sum.plus(e.execFee), money(0)),
      ),
    executionsPerSentId: () =>
      [...new Set(fake.orderPosts().map((r) => String(r.params.orderLinkId)))].map(
        (id) => executed(id).length,
      ),
    close: () => fake.close(),
  };
  return { fake, double };
}

/**
 * The OKX double, a Trading account in net mode, ETH-USDT-SWAP (0.1 ETH a contract) isolated at 2×, 1000 USDT,
 * at 2000 (every swap fill pays 0.05 %).
 */
export async function okxShorts(): Promise<{ fake: FakeOkxServer; double: ShortsDouble }> {
  const fake = await FakeOkxServer.start({ apiKey: 'k', secret: 's', passphrase: 'p' });
  fake.setPrice('ETHUSDT', 'future', '2000');
  fake.book.cash.set('USDT', money('1000'));
  const exchange = new OkxExchange({
    apiKey: 'k',
    secret: 's',
    passphrase: 'p',
    baseUrl: fake.url,
    enableRateLimit: false,
    retry: noDelay,
    budget: virtualBudget().budget,
  });
  await exchange.setLeverage('ETHUSDT', 2);
  const instId = 'ETH-USDT-SWAP';
  const ctVal = fake.book.instrument(instId).ctVal;
  const executed = (clOrdId: string) => fake.book.executedWithClOrdId(clOrdId);
  const double: ShortsDouble = {
    exchange,
    setPrice: (price) => fake.setPrice('ETHUSDT', 'future', price),
    // [positions] posSide net: "negative `pos` means short position"; pos in contracts of ctVal ETH.
    position: () => fake.book.positions.get(instId)?.pos.times(ctVal).toFixed() ?? '0',
    openOrders: () => fake.book.pending('SWAP', instId).length,
    lastMarketOrder: () => {
      const sent = fake
        .orderPosts()
        .filter((r) => r.params.instId === instId && r.params.ordType === 'market')
        .at(-1)?.params;
      return (
        sent && {
          side: sent.side === 'buy' ? 'buy' : 'sell',
          quantity: money(String(sent.sz)).times(ctVal).toFixed(),
          reduceOnly: sent.reduceOnly === true,
        }
      );
    },
    // [fills] fee: "Negative number represents the user transaction fee charged by the platform".
    executedFees: (id) =>
      fake.book.orders
        .filter((o) => clientOrderIdOfClOrdId(o.clOrdId) === id && o.accFillSz.gt(0))
        .map((order) =>
          fake.book.fills
            .filter((f) => f.ordId === order.ordId)
            .reduce((sum, f) => sum.minus(f.fee), money(0)),
        ),
    executionsPerSentId: () =>
      [...new Set(fake.orderPosts().map((r) => String(r.params.clOrdId)))].map((id) => executed(id).length),
    close: () => fake.close(),
  };
  return { fake, double };
}

/** The runner is done with what it had to do. */
const settled = (s: BotSupervisor, botId: string) => s.rangeRunner(botId)?.serial(async () => {});

/**
 * The grid row and a runtime trading it on `double` at 2000 (the double priced at 2000 already), for a user whose
 * keys are sealed with `keyByte`; with `trailingDown`, the grid moves down below its bottom.
 */
export async function futuresGridOn(
  db: Db,
  double: ShortsDouble,
  direction: 'short' | 'neutral',
  keyByte: number,
  trailingDown = false,
) {
  const feed = new ManualFeed({ 'future:ETHUSDT': '2000' });
  const userId = await insertUserWithKeys(db, SecretBox.fromKey(Buffer.alloc(32, keyByte)));
  const params = rangeStrategySchema.parse({
    type: 'range',
    lower: 1900,
    upper: 2100,
    grids: 4,
    direction,
    leverage: 2,
    trailingDown,
  });
  const { botId } = await insertRangeBot(db, userId, {
    symbol: 'ETHUSDT',
    market: 'future',
    params,
    investment: 500,
  });
  // Every user's exchange is this one double here (no two users share one in production): the bots of the
  // tests before this one are stopped.
  await db.update(bots).set({ status: 'Stopped' }).where(ne(bots.id, botId));
  const supervisor = supervisorOnBinance(db, feed, double.exchange);
  await supervisor.start();
  /** `volume` caps what the double's resting orders fill on this move. */
  const move = async (price: string, volume?: string) => {
    double.setPrice(price, volume);
    feed.setPrice('ETHUSDT', 'future', price);
    await settled(supervisor, botId);
    await settled(supervisor, botId);
  };
  const botRow = async () => (await db.select().from(bots).where(eq(bots.id, botId)))[0]!;
  const fills = () => db.select().from(botFills).where(eq(botFills.botId, botId)).orderBy(asc(botFills.id));
  return {
    botId,
    supervisor,
    move,
    /**
     * Ticks at `price` until `check` passes: a fault makes the runner reload the bot from the database, an
     * order the venue does not hold then waits out its window before it is laid out again (3 s on Bybit
     * here), and the orders a fill queued go out on a later tick.
     */
    tickUntil: (price: string, check: () => Promise<void> | void) =>
      eventually(async () => {
        await move(price);
        await check();
      }, 20_000),
    fills,
    resting: () =>
      supervisor.rangeRunner(botId)!.currentState.orders.map((o) => [o.level, o.side, o.price, o.reduceOnly]),
    gridPosition: () => String(supervisor.rangeRunner(botId)!.currentState.futures?.pos),
    /**
     * Stop with sell: every order is cancelled and the short of `qty` closed by a reduce-only market buy; then the
     * double holds no position and no order, the bot's `count` fills are each one order booked once with its fee,
     * and the grid stored holds nothing.
     */
    stopWithSellClosingShort: async (qty: string, count: number) => {
      await db.insert(botCommands).values({ botId, type: 'stop_sell', payload: {} });
      await supervisor.notify(botId);
      await eventually(async () => expect(await botRow()).toMatchObject({ status: 'Stopped' }), 20_000);
      expect(double.position()).toBe('0');
      expect(double.openOrders()).toBe(0);
      expect(double.lastMarketOrder()).toEqual({ side: 'buy', quantity: qty, reduceOnly: true });
      const rows = await fills();
      expect(rows).toHaveLength(count);
      expectEachFillOnce(double, rows);
      expect(((await botRow()).engineState as { futures: { pos: number } }).futures.pos).toBe(0);
    },
  };
}

/**
 * One order per intent, each fill booked once with its fee: every booked fill is one executed order of the double
 * whose fee is the fee booked, and no order id the adapter sent executed twice.
 */
export function expectEachFillOnce(double: ShortsDouble, rows: { clientOrderId: string; fee: string }[]) {
  for (const row of rows) {
    const fees = double.executedFees(row.clientOrderId);
    expect(fees).toHaveLength(1);
    expect(money(row.fee).toFixed()).toBe(fees[0]!.toFixed());
  }
  for (const count of double.executionsPerSentId()) expect(count).toBeLessThanOrEqual(1);
}
