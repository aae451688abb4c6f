import { keyOwnersAfter } from '../exchange';
import { type HaltUserBots, type KeyCheckDeps, recheckKey } from './key-permissions';

const DAY_MS = 86_400_000;
const PAGE = 200;

/**
 * Re-reads every saved key's rights once a day, and a user's key at once when one of their orders failed
 * with an authentication error (`checkUser`): a key whose owner took a right away pauses their bots with
 * the reason, instead of failing order after order.
 */
export class KeyPermissionMonitor {
  private timer: NodeJS.Timeout | undefined;
  private readonly checking = new Set<string>();

  constructor(
    private readonly deps: KeyCheckDeps & { log: (message: string, extra?: Record<string, unknown>) => void },
    private readonly halt: HaltUserBots,
    private readonly everyMs = DAY_MS,
  ) {}

  start(): void {
    if (!this.deps.exchanges.keyPermissions) return;
    this.timer = setInterval(() => void this.checkAll(), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One pass over every saved key, a page at a time. */
  async checkAll(): Promise<void> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const userIds = await keyOwnersAfter(this.deps.db, after, PAGE);
      for (const userId of userIds) await this.checkUser(userId);
      const last = userIds.at(-1);
      if (!last || userIds.length < PAGE) return;
      after = last;
    }
  }

  /** Checks one user's key; a check already under way for the user is not started twice. */
  async checkUser(userId: string): Promise<void> {
    if (this.checking.has(userId)) return;
    this.checking.add(userId);
    try {
      await recheckKey(this.deps, userId, this.halt);
    } catch (error) {
      this.deps.log('key permission check failed', {
        userId,
        err: String((error as Error).message ?? error),
      });
    } finally {
      this.checking.delete(userId);
    }
  }
}
