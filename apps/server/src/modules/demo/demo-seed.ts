import type { PaperExchange } from '@gridbot/exchange';
import type { AppDeps } from '../../app/deps';
import { hashPassword } from '../../lib/passwords';
import { newUserCode } from '../../lib/tokens';
import { startBot } from '../bots';
import { startCycle } from '../cycles';
import { saveApiKeys } from '../exchange';
import { findUserByEmail, insertUser } from '../identity';
import { seedDemoAdmin } from './demo-admin';
import { seedDemoPlatform } from './demo-platform';
import { seedDemoTrader } from './demo-traders';

export const DEMO_ACCOUNT = { email: 'demo@gridbot.local', username: 'demo', password: 'demo1234' } as const;

/** Spot assets besides USDT, so Swap to USDT can be tried at once. */
const DEMO_ASSETS = [
  ['BTC', '0.05'],
  ['ETH', '1.2'],
  ['SOL', '15'],
] as const;

/** Bots the demo account runs from the start, on system strategies, so its first dashboard is alive. */
const DEMO_BOTS = [
  { type: 'multigrid', category: 'Spot', selectPair: 'ETHUSDT', myStrategy: 'Tight Range 5', amount: 1500 },
  {
    type: 'multigrid',
    category: 'Spot',
    selectPair: 'BTCUSDT',
    myStrategy: 'Steady Ladder 10',
    amount: 2000,
  },
  { type: 'scalping', category: 'Spot', selectPair: 'SOLUSDT', myStrategy: 'Scalp Light 3', amount: 600 },
] as const;

const NO_LIMITS = {
  leverage: undefined,
  profitbookat: undefined,
  sellPausePrice: undefined,
  restartPrice: undefined,
  stoplossPrice: undefined,
};

/**
 * Creates the embedded demo account once (docs/architecture.md §1): bound paper keys, a funded paper account with some
 * non-USDT assets, a few bots trading on the simulated market and, with subscriptions on, platform data. The demo
 * administrator and the sample trader whose bots fill Copy BOTs (demo-traders.ts) are seeded beside it, also on an
 * install whose demo account already exists.
 */
export async function seedDemoAccount(
  deps: AppDeps,
  paper: PaperExchange,
  historyDir?: string,
): Promise<{ created: boolean }> {
  await seedDemoAdmin(deps);
  await seedDemoTrader(deps, paper, historyDir);
  if (await findUserByEmail(deps.db, DEMO_ACCOUNT.email)) return { created: false };
  const user = await insertUser(deps.db, {
    email: DEMO_ACCOUNT.email,
    username: DEMO_ACCOUNT.username,
    contactNo: '+10000000000',
    passwordHash: await hashPassword(DEMO_ACCOUNT.password),
    userCode: newUserCode(),
  });
  // On Binance the demo account has no keys and runs nothing: paper keys would be refused by Binance, and a
  // seeding step must never stop the platform from starting. The user connects real keys in API Setting.
  if (deps.config.exchange === 'binance') {
    await seedDemoPlatform(deps, user.id);
    return { created: true };
  }
  await saveApiKeys(
    deps.db,
    user.id,
    { apiKey: 'demo-paper-key', secretSealed: deps.secrets.seal('demo-paper-secret'), exchange: 'binance' },
    deps.clock.now(),
  );
  await paper.forUser(user.id).balances('spot'); // opens the account with its start funds
  for (const [asset, amount] of DEMO_ASSETS) await paper.fund(user.id, 'spot', asset, amount);
  for (const { type, ...bot } of DEMO_BOTS) {
    await startBot(deps, user.id, type, { ...bot, ...NO_LIMITS });
  }
  await startDemoCycle(deps, user.id);
  await seedDemoPlatform(deps, user.id);
  return { created: true };
}

/** A cycle with a narrow band around the live price, so the Start Cycle page shows one turning over. */
async function startDemoCycle(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'feed' | 'exchanges' | 'secrets' | 'botControl' | 'state'>,
  userId: string,
) {
  const price = Number(deps.feed.lastPrice('LTCUSDT', 'spot') ?? 0);
  if (!(price > 0)) return;
  const at = (factor: number) => Number((price * factor).toPrecision(6));
  await startCycle(deps, userId, {
    category: 'Spot',
    pair: 'LTCUSDT',
    amount: 300,
    priceReachAt: at(0.999),
    sellPriceAt: at(1.003),
    stopLossAt: at(0.95),
    cycleCount: 50,
    leverage: undefined,
  });
}
