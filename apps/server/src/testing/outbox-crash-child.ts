import { createDb } from '@gridbot/db';
import { sql } from 'drizzle-orm';
import { SecretBox } from '../lib/secret-box';
import { NotificationDispatcher } from '../modules/notifications/dispatcher';

// A process for the outbox crash test (modules/notifications/outbox-crash.pg.test.ts): it keeps stopping the
// database's Live bots by stoploss, one transaction each, while its own dispatcher delivers the notifications;
// the test kills it with SIGKILL at random moments. With CHANGES=0 it only delivers.
const database = await createDb({ databaseUrl: process.env.DATABASE_URL, maxConnections: 4 });
const dispatcher = new NotificationDispatcher({
  db: database.db,
  mailer: { send: async () => undefined },
  secrets: SecretBox.fromKey(Buffer.from(String(process.env.MASTER_KEY), 'hex')),
  publicUrl: 'http://localhost:3000',
  // The test's webhook receiver listens on loopback.
  webhookTargets: { allowPrivate: true },
  now: () => new Date(),
  log: () => undefined,
  pollMs: 5,
  claimMs: 300,
  backoffMs: () => 20,
  maxAttempts: 1_000,
});
dispatcher.start();
process.stdout.write('ready\n');
while (process.env.CHANGES !== '0') {
  await database.db.execute(sql`
    update bots set status = 'Stopped', stop_reason = 'stoploss'
    where id = (select id from bots where status = 'Live' limit 1)`);
  await new Promise((resolve) => setTimeout(resolve, 3));
}
