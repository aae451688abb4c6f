import type { Exchange } from '@gridbot/exchange';
import {
  type BotCommitment,
  type CommittedFunds,
  DEFAULT_FEE_PCT,
  feeOf,
  Money,
  money,
} from '@gridbot/shared';

import type { AppDeps } from '../../app/deps';
import type { AccountConn } from '../../lib/account-lock';
import { BOT_TYPES, engineStatesOf, holdingBotHeads, pendingRebuyReserves } from './bots.repo';
import { perState } from './per-state';

/** What a committed-funds computation needs of a bot row. */
export interface HoldingBot {
  id: string;
  botType: 'multigrid' | 'scalping' | 'cycle' | 'range';
  strategyName: string;
  symbol: string;
  category: 'Spot' | 'Future';
  investment: string;
  leverage: number;
  engineState: Record<string, unknown> | null;
}

interface StateAccount {
  openQty?: number;
  openMargin?: number;
}

const KIND_LABEL = {
  multigrid: 'Multigrid',
  scalping: 'Scalping',
  cycle: 'Cycle',
  range: 'Range grid',
} as const;

/** "ETHUSDT Spot · Multigrid 'Tight'": the pair, the kind and (for grid bots) the strategy it runs. */
export function botLabel(bot: Pick<HoldingBot, 'botType' | 'strategyName' | 'symbol' | 'category'>) {
  const strategy = bot.botType === 'cycle' || bot.strategyName === '' ? '' : ` '${bot.strategyName}'`;
  return `${bot.symbol} ${bot.category} · ${KIND_LABEL[bot.botType]}${strategy}`;
}

/**
 * One bot's share of the wallet. Its unspent investment (investment − margin of its open lots; a pending buy
 * is still unspent) stays reserved, with the fee its futures buys will pay, in the wallet it trades from; a spot bot
 * also owns the coins of its open lots. Money a bot already lost is not reserved again: the reserve never
 * goes below zero. A re-buy of coins sold outside the platform that a resume chose (`rebuyUsdt`) is reserved
 * on top until the runtime has booked it: its lots then count as bought.
 */
export function commitmentOf(bot: HoldingBot, rebuyUsdt = '0'): BotCommitment {
  const held = heldBy(bot);
  if (bot.botType === 'range' || rebuyUsdt === '0') return held;
  return { ...held, usdt: money(held.usdt).plus(rebuyUsdt).toFixed() };
}

/** What a bot holds by its state, once per state version (polled with every pie and Wallet Dashboard). */
const heldBy = perState(
  (bot: HoldingBot) => (bot.botType === 'range' ? rangeCommitmentOf(bot) : gridCommitmentOf(bot)),
  (bot) => [bot.botType, bot.investment, bot.leverage, bot.category, bot.symbol, bot.strategyName],
);

function gridCommitmentOf(bot: HoldingBot): BotCommitment {
  const account = ((bot.engineState as { account?: StateAccount } | null)?.account ?? {}) as StateAccount;
  const future = bot.category === 'Future';
  const unspent = Money.max(0, money(bot.investment).minus(account.openMargin ?? 0));
  // A spot buy's fee comes out of the coin bought (docs/trading-rules.md §2.1): only futures fees take USDT.
  const usdt = future
    ? unspent.plus(feeOf(unspent.times(Math.max(1, bot.leverage)), DEFAULT_FEE_PCT.future))
    : unspent;
  const qty = future ? money(0) : Money.max(0, money(account.openQty ?? 0));
  return {
    botId: bot.id,
    name: botLabel(bot),
    botType: bot.botType,
    symbol: bot.symbol,
    category: bot.category,
    usdt: usdt.toFixed(),
    asset: future ? null : bot.symbol.replace(/USDT$/, ''),
    qty: qty.toFixed(),
  };
}

interface RangeHeld {
  quote?: number;
  lockedQuote?: number;
  base?: number;
  lockedBase?: number;
  futures?: { margin: number };
}

/**
 * A range grid's share (docs/trading-rules.md §2.6): what its resting orders lock the exchange already holds
 * apart, so a spot grid keeps the USDT and coin it holds free of them; a futures grid its wallet balance less
 * the margin its position holds.
 */
function rangeCommitmentOf(bot: HoldingBot): BotCommitment {
  const s = (bot.engineState ?? {}) as RangeHeld;
  const future = bot.category === 'Future';
  const usdt = future
    ? Money.max(0, money(s.quote ?? bot.investment).minus(s.futures?.margin ?? 0))
    : Money.max(0, money(s.quote ?? bot.investment).minus(s.lockedQuote ?? 0));
  const qty = future ? money(0) : Money.max(0, money(s.base ?? 0).minus(s.lockedBase ?? 0));
  return {
    botId: bot.id,
    name: botLabel(bot),
    botType: bot.botType,
    symbol: bot.symbol,
    category: bot.category,
    usdt: usdt.toFixed(),
    asset: future ? null : bot.symbol.replace(/USDT$/, ''),
    qty: qty.toFixed(),
  };
}

/** Sums the commitments of a user's holding bots per wallet and per coin. */
export function sumCommitments(commitments: readonly BotCommitment[]): CommittedFunds {
  let spot: Money = money(0);
  let futures: Money = money(0);
  const coins = new Map<string, Money>();
  for (const c of commitments) {
    if (c.category === 'Future') futures = futures.plus(c.usdt);
    else spot = spot.plus(c.usdt);
    if (c.asset && money(c.qty).gt(0)) coins.set(c.asset, (coins.get(c.asset) ?? money(0)).plus(c.qty));
  }
  return {
    spotUsdt: spot.toFixed(),
    futuresUsdt: futures.toFixed(),
    coins: Object.fromEntries([...coins].map(([asset, qty]) => [asset, qty.toFixed()])),
    bots: [...commitments],
  };
}

/**
 * What the user's running bots and cycles hold (Wallet Dashboard, transfers, swaps, new starts). What moves
 * or commits money reads it on the connection of its account lock (`conn`, lib/account-lock.ts); a screen
 * (no `conn`) reads it through the process's shared reads, one statement for the users who ask together.
 */
export async function committedFunds(
  deps: Pick<AppDeps, 'db' | 'state'>,
  userId: string,
  conn?: AccountConn,
): Promise<CommittedFunds> {
  const [heads, rebuys] = conn
    ? await Promise.all([holdingBotHeads(conn, userId), pendingRebuyReserves(conn, userId)])
    : await Promise.all([
        deps.state.dashboard.runningBots(userId, BOT_TYPES),
        deps.state.dashboard.pendingRebuyReserves(userId),
      ]);
  const holding: HoldingBot[] = await deps.state.botStates.withStates(heads, (ids) =>
    engineStatesOf(conn ?? deps.db, userId, ids),
  );
  const rebuyOf = new Map<string, Money>();
  for (const r of rebuys)
    rebuyOf.set(r.botId, (rebuyOf.get(r.botId) ?? money(0)).plus(money(r.reserveUsdt ?? '0')));
  return sumCommitments(holding.map((bot) => commitmentOf(bot, rebuyOf.get(bot.id)?.toFixed())));
}

/** `balance − committed`, never below zero (on Binance the user may have spent a bot's funds elsewhere). */
export function freePart(balance: string, committed: string | undefined): string {
  return Money.max(0, money(balance).minus(committed ?? 0)).toFixed();
}

/** The bots holding some of `asset`, by name (for the refusal message). */
export function botsHolding(funds: CommittedFunds, asset: string): string[] {
  return funds.bots.filter((b) => b.asset === asset && money(b.qty).gt(0)).map((b) => b.name);
}

/** The bots reserving USDT in one wallet, by name. */
export function botsReservingUsdt(funds: CommittedFunds, wallet: 'spot' | 'future'): string[] {
  const category = wallet === 'future' ? 'Future' : 'Spot';
  return funds.bots.filter((b) => b.category === category && money(b.usdt).gt(0)).map((b) => b.name);
}

/**
 * What the bots hold of the wallet a new bot would trade from: that wallet's share, or both wallets' when the
 * exchange keeps one balance for both (OKX), where a spot bot's reserve is a futures bot's money too.
 */
export function reservedFrom(
  exchange: Pick<Exchange, 'sharedWallet'>,
  committed: Pick<CommittedFunds, 'spotUsdt' | 'futuresUsdt'>,
  market: 'spot' | 'future',
): string {
  if (exchange.sharedWallet) return money(committed.spotUsdt).plus(committed.futuresUsdt).toFixed();
  return market === 'spot' ? committed.spotUsdt : committed.futuresUsdt;
}

/**
 * Spot and futures USDT of the Wallet Dashboard cards (docs/spec/02-bots-wallet-account.md): `spot`/`futures` are the free parts (what
 * can be moved or given to a new bot), `total` every USDT the account holds, bots' reserves included. An
 * exchange with one balance for both (OKX) answers it for each wallet: it counts once, and each wallet's free
 * part is what no bot holds of it (`reservedFrom`).
 */
export async function usdtBalances(
  exchange: Pick<Exchange, 'usdtFree' | 'sharedWallet'>,
  committed?: Pick<CommittedFunds, 'spotUsdt' | 'futuresUsdt'>,
) {
  const { spot, future: futures } = await exchange.usdtFree();
  const held = (market: 'spot' | 'future') => committed && reservedFrom(exchange, committed, market);
  return {
    spot: freePart(spot, held('spot')),
    futures: freePart(futures, held('future')),
    total: exchange.sharedWallet ? money(spot).toFixed() : money(spot).plus(futures).toFixed(),
  };
}
