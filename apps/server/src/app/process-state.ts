import type { Db } from '@gridbot/db';
import type { MarketFeed } from '@gridbot/exchange';
import type { Bus } from '../bus/bus';
import { CommandResults } from '../bus/command-results';
import { AccountLocks } from '../lib/account-lock';
import { BotStateCache, DashboardReads, SparklineCache } from '../modules/bots';
import { type LiveSessionReads, liveSessionReads, SessionCache } from '../modules/identity';
import { LastSeen } from '../modules/security';

/**
 * What the API keeps in memory between requests: caches, the reads that requests share, the one bus
 * subscription for command results. One per process, built by its role (`createProcessState`) and handed to
 * buildApp in `AppDeps.state` (docs/architecture.md §1 "Per-process state"): no module keeps any of it.
 */
export interface ProcessState {
  /** Sessions by token hash, trusted a few seconds; revocations drop them (session-revocations.ts). */
  sessions: SessionCache;
  /** Unrevoked sessions of many requests in one statement. */
  liveSessions: LiveSessionReads;
  /** When each session's `last_seen_at` was last written. */
  lastSeen: LastSeen;
  /** Parsed engine states by bot and version (dashboard cards, committed funds). */
  botStates: BotStateCache;
  /** The feed's recent closes for bot and cycle cards. */
  sparklines: SparklineCache;
  /** The dashboard polls' batched reads. */
  dashboard: DashboardReads;
  /** Requests waiting for the worker's word about their bot commands. */
  commandResults: CommandResults;
  /** Each account's money operations, one at a time (lib/account-lock.ts). */
  accounts: AccountLocks;
}

/** `userEvents`: the bus the workers' words about commands arrive on (`AppDeps.userEvents`). */
export function createProcessState(parts: { db: Db; feed: MarketFeed; userEvents?: Bus }): ProcessState {
  return {
    sessions: new SessionCache(),
    liveSessions: liveSessionReads(parts.db),
    lastSeen: new LastSeen(parts.db),
    botStates: new BotStateCache(),
    sparklines: new SparklineCache(parts.feed),
    dashboard: new DashboardReads(parts.db),
    commandResults: new CommandResults(parts.userEvents),
    accounts: new AccountLocks(parts.db),
  };
}
