import { describe, it } from 'vitest';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { crashTestContext } from '../testing/crash-harness';
import { freePort } from '../testing/free-port';

// The server is killed with SIGKILL at random moments while a bot trades; after every
// restart no order is doubled, no fill is lost, and the paper ledger still equals the bot's fills.
// PostgreSQL only (`npm run test:pg`): a crash of the embedded PGlite is a different question (its own
// durability). The bot and the cycle are two files so that they run side by side.
const KILLS = 12;
const t = crashTestContext();

describe('SIGKILL while bots trade', () => {
  it(`loses no fill and doubles no order over ${KILLS} kills`, async () => {
    const userId = await insertUserWithKeys(t.handle.db, t.secrets);
    const botId = await insertBot(t.handle.db, userId, { symbol: 'ETHUSDT', investment: 1000 });
    await t.harness.killRepeatedly(await freePort(), KILLS);
    await t.harness.expectConsistent(userId, botId, 'ETH');
  }, 600_000);
});
