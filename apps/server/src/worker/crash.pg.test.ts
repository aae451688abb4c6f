import { createTestDb, type DbHandle } from '@gridbot/db';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { CRASH_MASTER_KEY, crashHarness } from '../testing/crash-harness';
import { freePort } from '../testing/free-port';

// Issue #6: the server is killed with SIGKILL at random moments while a bot trades; after every
// restart no order is doubled, no fill is lost, and the paper ledger still equals the bot's fills.
// PostgreSQL only (`npm run test:pg`): a crash of the embedded PGlite is a different question (its own
// durability). The bot and the cycle are two files so that they run side by side.
const KILLS = 20;
let handle: DbHandle;
let harness: ReturnType<typeof crashHarness>;
beforeAll(async () => {
  handle = await createTestDb();
  harness = crashHarness(handle);
});
afterAll(async () => {
  await handle.close();
});
const secrets = () => SecretBox.fromKey(Buffer.from(CRASH_MASTER_KEY, 'hex'));

describe('SIGKILL while bots trade', () => {
  it(`loses no fill and doubles no order over ${KILLS} kills`, async () => {
    const userId = await insertUserWithKeys(handle.db, secrets());
    const botId = await insertBot(handle.db, userId, { symbol: 'ETHUSDT', investment: 1000 });
    await harness.killRepeatedly(await freePort(), KILLS);
    await harness.expectConsistent(userId, botId, 'ETH');
  }, 600_000);
});
