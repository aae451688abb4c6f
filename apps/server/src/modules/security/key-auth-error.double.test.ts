import { bots, createTestDb, type DbHandle } from '@gridbot/db';
import { eventually, FakeBinanceServer, ManualFeed, tradingKeyPermissions } from '@gridbot/exchange/testing';
import { securityMessages as sm } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../lib/secret-box';
import { binanceClientOf } from '../../testing/binance-client';
import { insertBot, insertUserWithKeys } from '../../testing/bot-fixtures';
import { BotSupervisor } from '../../worker/bot-supervisor';
import type { ExchangeGateway } from '../exchange/exchange-gateway';
import { KeyPermissionMonitor } from './key-monitor';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

const botRow = async (botId: string) => (await handle.db.select().from(bots).where(eq(bots.id, botId)))[0];

describe('an order refused for the key on the Binance double', () => {
  it("reads the key's rights at once and pauses the user's other bots with the reason", async () => {
    const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
    // The owner took spot trading away on Binance: orders now answer -2015.
    fake.keyPermissions = { ...tradingKeyPermissions(), enableSpotAndMarginTrading: false };
    fake.setPrice('ETHUSDT', 'spot', '2000');
    const exchange = binanceClientOf(fake);
    const secrets = SecretBox.fromKey(Buffer.alloc(32, 8));
    const userId = await insertUserWithKeys(handle.db, secrets);
    const trading = await insertBot(handle.db, userId, { symbol: 'ETHUSDT' });
    // A second bot whose market is quiet: it sends no order, so only the key check can pause it.
    const quiet = await insertBot(handle.db, userId, { symbol: 'BTCUSDT' });
    const gateway: ExchangeGateway = {
      venue: 'binance',
      forUser: () => exchange,
      verifyKeys: async () => true,
      keyPermissions: () => exchange.keyPermissions(),
    };
    const monitor = new KeyPermissionMonitor(
      { db: handle.db, exchanges: gateway, secrets, now: () => new Date(), log: () => {} },
      (user, reason) => supervisor.haltUserBots(user, reason),
    );
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
    const supervisor: BotSupervisor = new BotSupervisor({
      db: handle.db,
      feed,
      exchanges: gateway,
      loadKeys: async () => ({ apiKey: 'k', secret: 's' }),
      now: () => Date.now(),
      log: () => {},
      onAuthError: (user) => void monitor.checkUser(user),
    });
    await supervisor.start();
    try {
      await eventually(async () => {
        // Ticks until the first grid buy goes out and is refused.
        feed.setPrice('ETHUSDT', 'spot', '2000');
        // The bot whose order was refused pauses with Binance's answer, unless the re-check of the key's rights,
        // which that refusal starts, gets there first with its own reason: both name the key.
        const row = await botRow(trading);
        expect(row?.status).toBe('Pause');
        expect([
          'Invalid API-key, IP, or permissions for action.',
          'The API key lost a permission it needs: Enable Spot & Margin Trading on this API key.',
        ]).toContain(row?.haltReason);
        expect(await botRow(quiet)).toMatchObject({
          status: 'Pause',
          haltReason: sm.keyLostRights(sm.spotTradingMissing),
        });
      }, 20_000);
      expect(fake.requests.some((r) => r.path === '/sapi/v1/account/apiRestrictions')).toBe(true);
    } finally {
      await supervisor.stop();
      await fake.close();
    }
  });
});
