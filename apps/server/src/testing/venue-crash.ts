import { botCommands, botFills, bots, type Db } from '@gridbot/db';
import type { EngineState } from '@gridbot/engine';
import { type FollowedPair, followPrices, type PricedDouble } from '@gridbot/exchange/testing';
import { type Money, money } from '@gridbot/shared';
import { eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import type { SecretBox } from '../lib/secret-box';
import { insertBot, insertSession, insertUserWithKeys } from './bot-fixtures';
import type { crashHarness } from './crash-harness';
import { freePort } from './free-port';

// The run the SIGKILL crash tests on an exchange's double share (`worker/crash-*-sigkill.pg.test.ts`): a spot
// and a futures bot of one member on ETHUSDT, the server killed at random moments while the double injects
// its exchange's faults, then stop with sell; and the checks after it.

/** A double the crash run drives: its prices follow the server's market, its faults are injected by target. */
export interface CrashDouble<Fault> extends PricedDouble {
  readonly url: string;
  /** Every request it received, with the fault it met ('answered' when none). */
  readonly requests: readonly { method: string; path: string; outcome: string }[];
  inject(target: string, fault: Fault): void;
  faultPending(target: string): boolean;
  close(): Promise<void>;
}

const PAIRS: FollowedPair[] = [
  { symbol: 'ETHUSDT', market: 'spot' },
  { symbol: 'ETHUSDT', market: 'future' },
];

/**
 * The requests the double received and the faults they met, by kind, and the endpoints of the last ones: a
 * crash run's progress, and where a run that stalls is stuck.
 */
function faultsMet(double: CrashDouble<unknown>): string {
  const met = new Map<string, number>();
  for (const { outcome } of double.requests)
    if (outcome !== 'answered') met.set(outcome, (met.get(outcome) ?? 0) + 1);
  const last = double.requests.slice(-5).map((r) => `${r.method} ${r.path} ${r.outcome}`);
  return `${double.requests.length} requests, faults met ${JSON.stringify(Object.fromEntries(met))}, last: ${last.join('; ')}`;
}

/** Each bot's status and, when it stopped or halted, why: a run whose bots trade no more says so. */
async function statusesOf(db: Db, botIds: readonly string[]): Promise<string> {
  const rows = await db
    .select()
    .from(bots)
    .where(inArray(bots.id, [...botIds]));
  return rows.map((r) => [r.status, r.stopReason, r.haltReason].filter(Boolean).join(' ')).join(', ');
}

/** Seeded pseudo-random numbers, so a failing run can be replayed. */
export function seededRandom(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

/** A member with bound keys and a bearer token, a spot bot (1,000 USDT) and a 3× futures bot (500 USDT). */
export async function spotAndFuturesBots(db: Db, secrets: SecretBox) {
  const userId = await insertUserWithKeys(db, secrets);
  const token = await insertSession(db, userId);
  const spotBot = await insertBot(db, userId, { symbol: 'ETHUSDT', investment: 1000 });
  const futuresBot = await insertBot(db, userId, {
    symbol: 'ETHUSDT',
    market: 'future',
    leverage: 3,
    investment: 500,
  });
  return { userId, token, spotBot, futuresBot, botIds: [spotBot, futuresBot] };
}

/**
 * Kills the server `kills` times (or more while `lacking()`) while the bots trade on `double`, whose prices
 * follow the server's live price and which meets `faults` in turn on `targets` (or on each of them), one at a
 * time per endpoint, whether or not a server runs. Then stop with sell for both bots, queued while no server
 * runs and taken by the last one at its start; resolves once both bots are stopped (or after `settleMs`: the
 * caller checks).
 */
export async function killWhileTrading<Fault>(
  harness: ReturnType<typeof crashHarness>,
  db: Db,
  run: {
    double: CrashDouble<Fault>;
    token: string;
    botIds: string[];
    kills: number;
    rand: () => number;
    env: Record<string, string>;
    faults: readonly Fault[];
    targets: readonly string[];
    /**
     * How long the last run may take to stop both bots with their sale (default 60 s). An order whose answer was
     * lost stays unknown for the exchange's request window before the sale can follow: OKX's is 30 s.
     */
    settleMs?: number;
    /** Each target takes the faults in turn (default: the faults in turn over all targets). */
    faultsPerTarget?: boolean;
    /** Whether the double has yet to meet what the caller checks: the run then kills again, up to `maxKills`. */
    lacking?: () => boolean;
    maxKills?: number;
    /** Whether the server has placed its first order (`killRepeatedly`'s `started`). */
    started?: () => boolean;
  },
): Promise<void> {
  const { double, token, botIds, rand } = run;
  const port = await freePort();
  // The replay's first price (ETHUSDT 15m, its 500th candle opens at 1892.6), from before the first server: the
  // bots order at its start, before the follower below has read the server's price, and a double still at its
  // default of 1 USDT made each bot's first orders fail for their notional, three in a row, which halts it.
  for (const { symbol, market } of PAIRS) double.setPrice(symbol, market, '1892.6');
  // The server's live price of each pair; while it is down the double keeps its last one.
  const follower = followPrices(double, PAIRS, async ({ symbol, market }) => {
    const path = market === 'spot' ? '/api/liveprice' : '/api/futureliveprice';
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      signal: AbortSignal.timeout(2000),
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pair: symbol }),
    });
    if (!res.ok) throw new Error(`${path} ${res.status}`);
    return String(((await res.json()) as { price: string | number }).price);
  });
  // The faults in turn, over all targets, or (`faultsPerTarget`) on each target, so that every kind meets the
  // order placements of a short run.
  const injected = new Map<string, number>();
  const faults = setInterval(() => {
    if (rand() < 0.5) return;
    const target = run.targets[Math.floor(rand() * run.targets.length)]!;
    if (double.faultPending(target)) return;
    const key = run.faultsPerTarget ? target : '';
    const count = injected.get(key) ?? 0;
    double.inject(target, run.faults[count % run.faults.length]!);
    injected.set(key, count + 1);
  }, 150);
  try {
    await harness.killRepeatedly(port, run.kills, {
      env: run.env,
      runMs: () => 1000 + rand() * 2500,
      ...(run.lacking ? { lacking: run.lacking, maxKills: run.maxKills ?? 3 * run.kills } : {}),
      ...(run.started ? { started: run.started } : {}),
      progress: async () => `${faultsMet(double)}; bots: ${await statusesOf(db, botIds)}`,
      beforeLast: async () => {
        clearInterval(faults);
        await db
          .insert(botCommands)
          .values(botIds.map((botId) => ({ botId, type: 'stop_sell' as const, payload: {} })));
      },
      settle: async () => {
        const deadline = Date.now() + (run.settleMs ?? 60_000);
        while (Date.now() < deadline) {
          const rows = await db.select().from(bots).where(inArray(bots.id, botIds));
          if (rows.every((r) => r.status === 'Stopped')) return;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      },
    });
  } finally {
    clearInterval(faults);
    await follower.stop();
    await double.close();
  }
  const rows = await db.select().from(bots).where(inArray(bots.id, botIds));
  expect(rows.map((r) => r.status)).toEqual(['Stopped', 'Stopped']);
}

/** An order the double executed, under the client order id the bot gave it, with its fee in USDT. */
export interface ExecutedOrder {
  clientOrderId: string;
  qty: Money;
  feeUsdt: Money;
}

/**
 * Every executed order is exactly one row of its bot's order book, with its quantity and its fee (USDT
 * value, to the cent); and the bots booked nothing else (funding rows are not fills).
 */
export async function expectBookedOnce(db: Db, botIds: string[], executed: readonly ExecutedOrder[]) {
  const fills = await db.select().from(botFills).where(inArray(botFills.botId, botIds));
  expect(fills.length).toBeGreaterThan(2);
  expect(fills).toHaveLength(executed.length);
  for (const order of executed) {
    const booked = fills.filter((f) => f.clientOrderId === order.clientOrderId);
    expect(booked).toHaveLength(1);
    expect(money(booked[0]!.fee).toFixed(2)).toBe(order.feeUsdt.toFixed(2));
    expect(money(booked[0]!.qty).toFixed(8)).toBe(order.qty.toFixed(8));
  }
}

/** After stop with sell the account holds no coin of the spot bot beyond its recorded dust. */
export async function expectOnlyDustLeft(db: Db, spotBot: string, coinHeld: Money) {
  const [spotRow] = await db.select().from(bots).where(eq(bots.id, spotBot));
  const dust = money((spotRow!.engineState as unknown as EngineState).account.dustQty);
  expect(coinHeld.toFixed(8)).toBe(dust.toFixed(8));
}
