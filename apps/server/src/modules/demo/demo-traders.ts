/**
 * The demo install's sample trader: a few Live bots with a real history, so Copy BOTs is not empty on a fresh
 * install (it ranks other members' bots that have run a day, docs/product.md §5, and the demo account's own
 * bots never qualify for it). Each bot's history is the engine's backtest of a system strategy over the last
 * days of the shipped Binance hourly candles (fixtures/history): the same step and fills as a live bot. The candles
 * are moved to end now and scaled to the pair's live price, so the bot's percentages are the real run's and its
 * open lots sit at today's prices on the simulated market that trades it from here on.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type Candles, runBacktest, startGridBacktest } from '@gridbot/engine';
import type { PaperExchange } from '@gridbot/exchange';
import { decodeCandles, type EncodedCandles } from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { hashPassword } from '../../lib/passwords';
import { newSecretToken, newUserCode } from '../../lib/tokens';
import { insertBot } from '../bots';
import { saveApiKeys } from '../exchange';
import { findUserByEmail, insertUser } from '../identity';
import { findSystemStrategy } from '../strategies';
import { insertDemoFills } from './demo-traders.repo';

/** No one signs in as the sample trader: its password is random and never shown. */
export const DEMO_TRADER = { email: 'sample-trader@gridbot.local', username: 'sampletrader' } as const;

const HOUR_MS = 3_600_000;

/** The sample bots: a system strategy on a pair, run over the last `days` of that pair's shipped candles. */
export const DEMO_TRADER_BOTS = [
  { kind: 'multigrid', symbol: 'ETHUSDT', strategy: 'Tight Range 5', amount: 1500, days: 14 },
  { kind: 'multigrid', symbol: 'BTCUSDT', strategy: 'Steady Ladder 10', amount: 2000, days: 21 },
  { kind: 'multigrid', symbol: 'BNBUSDT', strategy: 'Tight Range 5', amount: 1000, days: 10 },
  { kind: 'scalping', symbol: 'SOLUSDT', strategy: 'Scalp Classic 5', amount: 800, days: 7 },
  { kind: 'scalping', symbol: 'XRPUSDT', strategy: 'Scalp Light 3', amount: 600, days: 5 },
] as const;

type DemoBot = (typeof DEMO_TRADER_BOTS)[number];

async function shippedCandles(dir: string, symbol: string): Promise<Candles | undefined> {
  try {
    const buf = await readFile(join(dir, `binance-spot-${symbol}-1h.json.gz`));
    return decodeCandles(JSON.parse(gunzipSync(buf).toString('utf8')) as EncodedCandles);
  } catch {
    return undefined;
  }
}

/** The last `count` candles, moved so the last one closes at `endMs` and scaled so it closes at `price`. */
function lastCandlesAt(c: Candles, count: number, endMs: number, price: number): Candles {
  const from = Math.max(0, c.openTimeMs.length - count);
  const last = c.openTimeMs.length - 1;
  const shift = endMs - (c.openTimeMs[last]! + HOUR_MS);
  const scale = price / c.close[last]!;
  const part = (a: Float64Array, f: (v: number) => number) => Float64Array.from(a.subarray(from), f);
  return {
    openTimeMs: part(c.openTimeMs, (t) => t + shift),
    open: part(c.open, (v) => v * scale),
    high: part(c.high, (v) => v * scale),
    low: part(c.low, (v) => v * scale),
    close: part(c.close, (v) => v * scale),
  };
}

/**
 * Creates the sample trader once (never in production), with paper keys and its bots (on the paper exchange only: the bots trade on
 * from their backtested state, so the paper account holds the coins their open lots bought). A pair without
 * shipped candles or a live price is skipped: seeding never stops the platform from starting.
 */
export async function seedDemoTrader(
  deps: AppDeps,
  paper: PaperExchange,
  historyDir = resolve('fixtures/history'),
): Promise<{ created: boolean }> {
  // Sample bots in a real member list would mislead traders; Binance mode has no paper exchange to trade them on.
  if (deps.config.production || deps.config.exchange === 'binance') return { created: false };
  if (await findUserByEmail(deps.db, DEMO_TRADER.email)) return { created: false };
  const user = await insertUser(deps.db, {
    ...DEMO_TRADER,
    contactNo: '+10000000001',
    passwordHash: await hashPassword(newSecretToken()),
    userCode: newUserCode(),
  });
  await saveApiKeys(
    deps.db,
    user.id,
    { apiKey: 'demo-paper-key', secretSealed: deps.secrets.seal('demo-paper-secret'), exchange: 'binance' },
    deps.clock.now(),
  );
  await paper.forUser(user.id).balances('spot');
  for (const bot of DEMO_TRADER_BOTS) await seedBot(deps, paper, user.id, bot, historyDir);
  return { created: true };
}

async function seedBot(deps: AppDeps, paper: PaperExchange, userId: string, bot: DemoBot, dir: string) {
  const strategy = await findSystemStrategy(deps.db, bot.kind, bot.strategy);
  const history = await shippedCandles(dir, bot.symbol);
  const price = Number(deps.feed.lastPrice(bot.symbol, 'spot') ?? 0);
  if (!strategy || !history || !(price > 0)) return;
  const endMs = Math.floor(deps.clock.now().getTime() / HOUR_MS) * HOUR_MS;
  const candles = lastCandlesAt(history, bot.days * 24, endMs, price);
  const input = {
    strategy: strategy.params,
    symbol: bot.symbol,
    category: 'spot' as const,
    investment: bot.amount,
  };
  const start = startGridBacktest(input, candles.openTimeMs[0]!, candles.open[0]!);
  if (!start.ok) return;
  const run = runBacktest(start.state, candles, start.rules, { feePct: start.feePct });
  const fills = run.fills.filter((f) => f.side !== 'FUNDING');
  // Fill rows take sequence numbers 1…n; the bot's own next intents number on from there.
  const state = { ...run.state, seq: Math.max(run.state.seq, fills.length) };
  const botId = await insertBot(deps.db, {
    userId,
    botType: bot.kind,
    strategyId: null,
    strategyName: strategy.name,
    strategySnapshot: strategy.params,
    symbol: bot.symbol,
    category: 'Spot',
    investment: String(bot.amount),
    leverage: 1,
    engineState: state as unknown as Record<string, unknown>,
    venue: 'paper',
    createdAt: new Date(candles.openTimeMs[0]!),
  });
  await insertDemoFills(deps.db, botId, userId, fills);
  const held = run.state.account.openQty;
  if (held > 0) await paper.fund(userId, 'spot', bot.symbol.replace(/USDT$/, ''), held.toFixed(8));
  await deps.botControl.add(botId);
}
