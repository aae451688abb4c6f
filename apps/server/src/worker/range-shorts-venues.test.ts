/**
 * Futures range grids that go short, run alike on the Binance, Bybit and OKX doubles (docs/trading-rules.md §2.6,
 * §3). Neutral: buys below the start open a long and sells above it open a short on the one-way (OKX: net)
 * position, each answered one level away by a reduce-only order; stop with sell closes what is held reduce-only at
 * market. Orders whose answer is lost after the venue executed them, or that get a 5xx, are looked up by their
 * client order id, never sent twice.
 *
 * Figures by hand: ETHUSDT perpetual (tick 0.01, step 0.001 ETH), 500 USDT at 2× (1000 USDT of orders) on
 * 1900–2100 in 4 levels of 50, started at 2000: every order opens, so q = floor(1000 / (1900 + 1950 + 2050 +
 * 2100) / 0.001) × 0.001 = 0.125. No position at start: buys (not reduce-only) at 1900 and 1950, sells (not
 * reduce-only) at 2050 and 2100. The profits depend on each venue's fees, worked out in its `profits`.
 */
import { createTestDb, type DbHandle } from '@gridbot/db';
import { TIMEOUT_UNKNOWN } from '@gridbot/exchange/testing';
import { money } from '@gridbot/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  binanceShorts,
  bybitShorts,
  futuresGridOn,
  okxShorts,
  type ShortsDouble,
} from '../testing/range-shorts';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(() => handle.close());

/**
 * The faults an order placement meets here:
 * - `lostAnswer`: executed, its answer lost.
 * - `fiveXx`: a 5xx. Binance and Bybit answer it before executing the order; OKX after taking it, since an order
 *   OKX never received is known absent only 31 s after the call, past these tests' ticks (the OKX crash test
 *   covers those).
 * - `executedThenFiveXx`: executed, then answered with a 5xx; on OKX, whose `fiveXx` is that already, its
 *   answer is lost instead.
 */
type OrderFault = 'lostAnswer' | 'fiveXx' | 'executedThenFiveXx';

/** A venue's double at 2000, and what the tests do to it and read off it as the venue spells it. */
interface VenueRun {
  double: ShortsDouble;
  /** The next order placement meets `fault`. */
  fault(fault: OrderFault): void;
  /** A fault is still waiting for an order placement. */
  faultPending(): boolean;
  /** Each limit order sent: side, price, position mode where the venue takes one, reduceOnly. */
  limitsSent(): unknown[][];
  /** Each market order sent: side, quantity as the venue counts it, reduceOnly. */
  marketsSent(): unknown[][];
  /** Prices of the double's open reduce-only orders. */
  reduceOnlyPrices(): string[];
  /** The double's position as the venue shows it. */
  positionShown(): string | undefined;
}

interface Venue {
  name: string;
  /** The bytes sealing the keys of the neutral and the short grid's users. */
  keyBytes: { neutral: number; short: number };
  start(): Promise<VenueRun>;
  /** `limitsSent()` once the neutral grid rests its four openings. */
  openingLimits: unknown[][];
  /** `marketsSent()` once the short grid's start sold 2q. */
  startSell: unknown[][];
  /** `positionShown()` holding the neutral grid's long of 0.125, then its short of 0.25. */
  shown: { long: string; short: string };
  /** Grid profits of the closing orders, net of the venue's fees. */
  profits: {
    /** The neutral grid's long of 0.125, bought at 1950 and sold at 2000. */
    longClosed: string;
    /** Its short of 0.125 sold at 2100, bought back at 2050. */
    shortClosed: string;
    /** The short grid's buy of 0.122 at 1950, carrying half the start's net, 243.878. */
    startClosed: string;
  };
}

/** The parameters of each order sent whose `field` is `value`, as the venue spells them. */
const sentWhere = (posts: { params: Record<string, unknown> }[], field: string, value: string) =>
  posts.filter((r) => r.params[field] === value).map((r) => r.params);

/** `fault` and `faultPending` on the venue's order placement `order` ("METHOD /path"), with its own `faults`. */
function orderFaults<F>(
  fake: { inject(target: string, fault: F): void; faultPending(target: string): boolean },
  order: string,
  faults: Record<OrderFault, NoInfer<F>>,
): Pick<VenueRun, 'fault' | 'faultPending'> {
  return { fault: (f) => fake.inject(order, faults[f]), faultPending: () => fake.faultPending(order) };
}

/**
 * Binance USDⓈ-M (§2.6 "Live (Binance)"), one-way mode; client order ids travel as newClientOrderId. Resting
 * orders fill as makers (0.02 %), market orders as takers (0.05 %).
 */
const binance: Venue = {
  name: 'Binance',
  keyBytes: { neutral: 5, short: 6 },
  async start() {
    const { fake, double } = await binanceShorts();
    const sent = (type: string) => sentWhere(fake.orderPosts('future'), 'type', type);
    return {
      double,
      ...orderFaults(fake, 'POST /fapi/v1/order', {
        lostAnswer: { kind: 'executedThenDrop' },
        fiveXx: { kind: 'answer', status: 503, body: TIMEOUT_UNKNOWN },
        executedThenFiveXx: { kind: 'executedThenError', status: 503, body: TIMEOUT_UNKNOWN },
      }),
      limitsSent: () => sent('LIMIT').map((p) => [p.side, p.price, p.reduceOnly]),
      marketsSent: () => sent('MARKET').map((p) => [p.side, p.quantity, p.reduceOnly]),
      reduceOnlyPrices: () =>
        fake.book
          .openOrders('future', 'ETHUSDT')
          .filter((o) => o.reduceOnly)
          .map((o) => o.price.toFixed()),
      // positionAmt, negative for a short.
      positionShown: () => fake.book.positions.get('ETHUSDT')?.qty.toFixed(),
    };
  },
  openingLimits: [
    ['BUY', '1900', undefined],
    ['BUY', '1950', undefined],
    ['SELL', '2050', undefined],
    ['SELL', '2100', undefined],
  ],
  startSell: [['SELL', '0.244', undefined]],
  shown: { long: '0.125', short: '-0.25' },
  profits: {
    // 0.125 × 50 = 6.25 less the fees 0.125 × 1950 × 0.02 % = 0.04875 and 0.125 × 2000 × 0.02 % = 0.05.
    longClosed: '6.15125',
    // 6.25 less the fees 0.125 × 2100 × 0.02 % = 0.0525 and 0.125 × 2050 × 0.02 % = 0.05125.
    shortClosed: '6.14625',
    // 243.878 − 237.9 (0.122 at 1950) − its maker fee 0.04758.
    startClosed: '5.93042',
  },
};

/** Bybit linear and OKX swap fills pay 0.05 %, resting or at market. */
const flatFeeProfits: Venue['profits'] = {
  // 0.125 × 50 = 6.25 less the fees 0.125 × 1950 × 0.05 % = 0.121875 and 0.125 × 2000 × 0.05 % = 0.125.
  longClosed: '6.003125',
  // 6.25 less the fees 0.125 × 2100 × 0.05 % = 0.13125 and 0.125 × 2050 × 0.05 % = 0.128125.
  shortClosed: '5.990625',
  // 243.878 − 237.9 (0.122 at 1950) − its fee 0.11895.
  startClosed: '5.85905',
};

/** Bybit linear, one-way mode (positionIdx 0); client order ids travel as orderLinkId. */
const bybit: Venue = {
  name: 'Bybit',
  keyBytes: { neutral: 15, short: 16 },
  async start() {
    const { fake, double } = await bybitShorts();
    const sent = (orderType: string) => sentWhere(fake.orderPosts(), 'orderType', orderType);
    return {
      double,
      ...orderFaults(fake, 'POST /v5/order/create', {
        lostAnswer: { kind: 'executedThenDrop' },
        fiveXx: { kind: 'answer', status: 503, body: 'Service Unavailable' },
        executedThenFiveXx: { kind: 'executedThenError', status: 502 },
      }),
      limitsSent: () => sent('Limit').map((p) => [p.side, p.price, p.positionIdx, p.reduceOnly]),
      marketsSent: () => sent('Market').map((p) => [p.side, p.qty, p.reduceOnly]),
      reduceOnlyPrices: () =>
        fake.book
          .realtime('linear', { symbol: 'ETHUSDT' })
          .filter((o) => o.reduceOnly)
          .map((o) => o.price.toFixed()),
      // Bybit shows a short as side Sell with a positive size.
      positionShown: () => {
        const p = fake.book.positions.get('ETHUSDT');
        return p && `${p.side} ${p.size.toFixed()}`;
      },
    };
  },
  openingLimits: [
    ['Buy', '1900', 0, undefined],
    ['Buy', '1950', 0, undefined],
    ['Sell', '2050', 0, undefined],
    ['Sell', '2100', 0, undefined],
  ],
  startSell: [['Sell', '0.244', undefined]],
  shown: { long: 'Buy 0.125', short: 'Sell 0.25' },
  profits: flatFeeProfits,
};

/**
 * OKX, net mode (posSide net), ETH-USDT-SWAP of 0.1 ETH a contract (lot 0.01 contract): q is 1.25 contracts;
 * client order ids travel as clOrdId.
 */
const okx: Venue = {
  name: 'OKX',
  keyBytes: { neutral: 17, short: 18 },
  async start() {
    const { fake, double } = await okxShorts();
    const sent = (ordType: string) => sentWhere(fake.orderPosts(), 'ordType', ordType);
    return {
      double,
      ...orderFaults(fake, 'POST /api/v5/trade/order', {
        lostAnswer: { kind: 'executedThenDrop' },
        fiveXx: { kind: 'executedThenError', status: 502 },
        executedThenFiveXx: { kind: 'executedThenDrop' },
      }),
      limitsSent: () => sent('limit').map((p) => [p.side, p.px, p.posSide, p.reduceOnly]),
      marketsSent: () => sent('market').map((p) => [p.side, p.sz, p.reduceOnly]),
      reduceOnlyPrices: () =>
        fake.book
          .pending('SWAP', 'ETH-USDT-SWAP')
          .filter((o) => o.reduceOnly)
          .map((o) => o.px.toFixed()),
      // OKX shows a short as a negative pos, in contracts.
      positionShown: () => fake.book.positions.get('ETH-USDT-SWAP')?.pos.toFixed(),
    };
  },
  openingLimits: [
    ['buy', '1900', 'net', undefined],
    ['buy', '1950', 'net', undefined],
    ['sell', '2050', 'net', undefined],
    ['sell', '2100', 'net', undefined],
  ],
  startSell: [['sell', '2.44', undefined]],
  shown: { long: '1.25', short: '-2.5' },
  profits: flatFeeProfits,
};

type Grid = Awaited<ReturnType<typeof futuresGridOn>>;

/** Runs `steps` on a grid going `direction` on the venue's double, then stops the runtime and closes the double. */
async function onVenue(
  venue: Venue,
  direction: 'short' | 'neutral',
  steps: (grid: Grid, run: VenueRun) => Promise<void>,
) {
  const run = await venue.start();
  const grid = await futuresGridOn(handle.db, run.double, direction, venue.keyBytes[direction]);
  try {
    await steps(grid, run);
  } finally {
    await grid.supervisor.stop();
    await run.double.close();
  }
}

describe.each([binance, bybit, okx])('a neutral futures range grid on the $name double', (venue) => {
  it(
    'opens longs below and shorts above, closes each reduce-only one level away, and stops with a reduce-only close',
    () =>
      onVenue(venue, 'neutral', async (grid, run) => {
        const { botId, supervisor, move, tickUntil, fills, resting, gridPosition } = grid;
        const { double } = run;
        const brief = async () =>
          (await fills()).map((f) => [f.side, f.grid, money(f.price).toFixed(), money(f.qty).toFixed()]);
        await move('2000');
        expect(supervisor.rangeRunner(botId)!.currentState.qty).toBe(0.125);
        expect(resting()).toEqual([
          [0, 'buy', 1900, false],
          [1, 'buy', 1950, false],
          [3, 'sell', 2050, false],
          [4, 'sell', 2100, false],
        ]);
        // None of the four was sent reduce-only: the sells above open a short.
        expect(run.limitsSent()).toEqual(venue.openingLimits);
        expect(double.position()).toBe('0');

        // Down to 1950: the buy there opens a long of 0.125; the sell that closes it goes to 2000 reduce-only. The
        // venue executes it but its answer is lost: looked up, not resent.
        run.fault('lostAnswer');
        await tickUntil('1950', async () => {
          expect(await brief()).toEqual([['buy', 1, '1950', '0.125']]);
          expect(resting()).toContainEqual([2, 'sell', 2000, true]);
        });
        expect(run.faultPending()).toBe(false);
        expect(double.position()).toBe('0.125');
        expect(run.positionShown()).toBe(venue.shown.long);
        expect(gridPosition()).toBe('0.125');

        // Up to 2000: the reduce-only sell closes the long, 0.125 × 50 = 6.25 less both fees. The buy at 1950
        // opens again, meeting a 5xx first.
        run.fault('fiveXx');
        await tickUntil('2000', async () => {
          expect(await brief()).toEqual([
            ['buy', 1, '1950', '0.125'],
            ['sell', 2, '2000', '0.125'],
          ]);
          expect(resting()).toContainEqual([1, 'buy', 1950, false]);
        });
        expect(run.faultPending()).toBe(false);
        expect(money((await fills())[1]!.pnl!).toFixed()).toBe(venue.profits.longClosed);
        expect(double.position()).toBe('0');

        // Up to 2050, then 2100: the sells there open a short of 0.25; the buys that close them rest at 2000 and
        // 2050, reduce-only. The first order sent is executed but its answer fails: looked up, not resent.
        run.fault('executedThenFiveXx');
        await tickUntil('2050', async () => expect(await fills()).toHaveLength(3));
        expect(double.position()).toBe('-0.125');
        await tickUntil('2100', async () => {
          expect(await fills()).toHaveLength(4);
          expect(resting()).toEqual(
            expect.arrayContaining([
              [2, 'buy', 2000, true],
              [3, 'buy', 2050, true],
            ]),
          );
        });
        expect((await brief()).slice(2)).toEqual([
          ['sell', 3, '2050', '0.125'],
          ['sell', 4, '2100', '0.125'],
        ]);
        expect(run.faultPending()).toBe(false);
        expect(run.positionShown()).toBe(venue.shown.short);
        expect(double.position()).toBe('-0.25');
        expect(gridPosition()).toBe('-0.25');
        expect(run.reduceOnlyPrices()).toEqual(expect.arrayContaining(['2000', '2050']));

        // Down to 2050: the reduce-only buy there closes half the short, (2100 − 2050) × 0.125 = 6.25 less both fees.
        await tickUntil('2050', async () => expect(await fills()).toHaveLength(5));
        const closing = (await fills())[4]!;
        expect([closing.side, closing.grid, money(closing.price).toFixed()]).toEqual(['buy', 3, '2050']);
        expect(money(closing.pnl!).toFixed()).toBe(venue.profits.shortClosed);
        expect(double.position()).toBe('-0.125');
        expect(gridPosition()).toBe('-0.125');

        // Stop with sell: every order is cancelled and the short of 0.125 is closed by a reduce-only market buy.
        // One order per intent, each fill booked once with its fee: 6 fills, the stop's close the last.
        await grid.stopWithSellClosingShort('0.125', 6);
      }),
    120_000,
  );
});

/**
 * A short futures grid (§2.6 "Short: mirror"): 500 USDT at 2× on 1900–2100 in 4 levels, started at 2000. q =
 * floor(1000 / (2000 × 2 + 2050 + 2100) / 0.001) × 0.001 = 0.122: the start sells 2q = 0.244 at market, not
 * reduce-only (it opens the short; taker fee 488 × 0.05 % = 0.244), the buys at 1900 and 1950 close it reduce-only
 * (each carries half the start's net, (488 − 0.244) / 2 = 243.878), the sells at 2050 and 2100 add to it.
 */
describe.each([binance, bybit, okx])('a short futures range grid on the $name double', (venue) => {
  it(
    'opens its short at market, closes a level reduce-only, adds to the short above, and closes it all on stop with sell',
    () =>
      onVenue(venue, 'short', async (grid, run) => {
        const { tickUntil, fills, resting, gridPosition } = grid;
        const { double } = run;
        const brief = async () =>
          (await fills()).map((f) => [f.side, money(f.price).toFixed(), money(f.qty).toFixed()]);
        // The start's market sell executes but its answer is lost: looked up by its client order id, not resent.
        run.fault('lostAnswer');
        await tickUntil('2000', async () => {
          expect(await brief()).toEqual([['sell', '2000', '0.244']]);
          expect(resting()).toEqual([
            [0, 'buy', 1900, true],
            [1, 'buy', 1950, true],
            [3, 'sell', 2050, false],
            [4, 'sell', 2100, false],
          ]);
        });
        expect(run.faultPending()).toBe(false);
        expect(run.marketsSent()).toEqual(venue.startSell);
        expect(double.lastMarketOrder()).toEqual({ side: 'sell', quantity: '0.244', reduceOnly: false });
        expect(double.position()).toBe('-0.244');
        expect(gridPosition()).toBe('-0.244');

        // Down to 1950: the reduce-only buy there closes 0.122 (237.9 USDT). A sell (not reduce-only) answers it
        // at 2000, meeting a 5xx first.
        run.fault('fiveXx');
        await tickUntil('1950', async () => {
          expect(await brief()).toEqual([
            ['sell', '2000', '0.244'],
            ['buy', '1950', '0.122'],
          ]);
          expect(resting()).toContainEqual([2, 'sell', 2000, false]);
        });
        expect(money((await fills())[1]!.pnl!).toFixed()).toBe(venue.profits.startClosed);
        expect(double.position()).toBe('-0.122');
        expect(gridPosition()).toBe('-0.122');

        // Up to 2050: the sells at 2000 and 2050 add 0.244 to the short; reduce-only buys answer them at 1950 and 2000.
        await tickUntil('2050', async () => {
          expect(await fills()).toHaveLength(4);
          expect(resting()).toEqual(
            expect.arrayContaining([
              [1, 'buy', 1950, true],
              [2, 'buy', 2000, true],
            ]),
          );
        });
        expect(double.position()).toBe('-0.366');
        expect(gridPosition()).toBe('-0.366');

        // Stop with sell: the orders are cancelled and the short of 0.366 closed by a reduce-only market buy.
        await grid.stopWithSellClosingShort('0.366', 5);
      }),
    120_000,
  );
});
