import { botFills, bots, users } from '@gridbot/db';
import type { EngineState } from '@gridbot/engine';
import { eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBot } from '../../testing/bot-fixtures';
import { call, registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { FillRecord } from '../../worker/fills.repo';
import { createRuntimeWrites, haltBot, type RuntimeWrites, saveFill } from '../../worker/runtime-writes';

// The Profit Book, Loss Book and fill count of each bot are running sums that the fill writer keeps in the
// statement that inserts the fills (bot.repo writeFills); the dashboard totals, History and the Order Book's
// total read them instead of every fill.
let t: TestApp;
/** The fill writer, as a worker's runners share it. */
let writes: RuntimeWrites;
beforeAll(async () => {
  t = await createTestApp();
  writes = createRuntimeWrites(t.deps.db, () => t.deps.clock.now().getTime());
});
afterAll(async () => {
  await t.close();
});

const keys = { apiKey: 'k'.repeat(64), secretKey: 'secret-secret-secret' };

async function trader(prefix: string) {
  const user = await registerUser(t, prefix);
  await call(t, 'POST', '/api/apikeys', keys, { token: user.token });
  const [row] = await t.deps.db.select({ id: users.id }).from(users).where(eq(users.email, user.email));
  return { id: row!.id, auth: { token: user.token } };
}

/** A bot the runtime leaves alone (halted): only the fills written here change it. */
async function parkedBot(userId: string) {
  const botId = await insertBot(t.deps.db, userId);
  await haltBot(writes, botId, 'Parked by the test');
  const [row] = await t.deps.db.select().from(bots).where(eq(bots.id, botId));
  return { botId, state: row!.engineState as unknown as EngineState };
}

/** A sell booking `cents` of pnl (a buy when null). */
function fill(seq: number, cents: number | null): FillRecord {
  return {
    seq,
    side: cents === null ? 'buy' : 'sell',
    grid: 1,
    price: '2000',
    qty: '0.1',
    quote: '200',
    fee: '0.2',
    pnl: cents === null ? null : (cents / 100).toFixed(2),
    timeMs: Date.now() - seq * 1000,
  };
}

async function booksOf(botId: string) {
  const [row] = await t.deps.db
    .select({ profit: bots.profitBook, loss: bots.lossBook, fills: bots.fillCount })
    .from(bots)
    .where(eq(bots.id, botId));
  return { profit: Number(row!.profit).toFixed(2), loss: Number(row!.loss).toFixed(2), fills: row!.fills };
}

const sums = (cents: ReadonlyArray<number | null>) => ({
  profit: (cents.reduce<number>((s, c) => s + (c !== null && c > 0 ? c : 0), 0) / 100).toFixed(2),
  loss: (cents.reduce<number>((s, c) => s + (c !== null && c < 0 ? c : 0), 0) / 100).toFixed(2),
  fills: cents.length,
});

describe('profit and loss books and fill counts', () => {
  it('equal the sums of the fills, however they are batched and whichever are written twice', async () => {
    const user = await trader('books');
    const pnl = fc.option(fc.integer({ min: -50_000, max: 50_000 }), { nil: null });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ pnl, repeat: fc.boolean(), together: fc.boolean() }), { maxLength: 12 }),
        async (steps) => {
          const [a, b] = [await parkedBot(user.id), await parkedBot(user.id)];
          // Fills of two bots, some saved at once (one group commit), some saved again (a replay after a crash).
          let pending: Promise<void>[] = [];
          for (const [i, step] of steps.entries()) {
            const bot = i % 2 === 0 ? a : b;
            const record = fill(i + 1, step.pnl);
            pending.push(saveFill(writes, bot.botId, user.id, record, bot.state, 2000));
            if (step.repeat) pending.push(saveFill(writes, bot.botId, user.id, record, bot.state, 2000));
            if (!step.together) {
              await Promise.all(pending);
              pending = [];
            }
          }
          await Promise.all(pending);
          const of = (parity: number) => steps.filter((_, i) => i % 2 === parity).map((s) => s.pnl);
          expect(await booksOf(a.botId)).toEqual(sums(of(0)));
          expect(await booksOf(b.botId)).toEqual(sums(of(1)));
          // One running bot per pair: the next run's bots need the pairs back.
          await t.deps.db
            .update(bots)
            .set({ status: 'Stopped' })
            .where(inArray(bots.id, [a.botId, b.botId]));
        },
      ),
      { numRuns: 20 },
    );
  });

  it("count a closing order's pnl booked on its row once, as no new fill, however often it is written", async () => {
    const user = await trader('priced');
    const bot = await parkedBot(user.id);
    // A range grid's sell filled in two parts (its rest rests: no pnl yet; the second part grows its one row),
    // then counted complete with what filled.
    const part = { ...fill(1, null), side: 'sell' as const, rests: true };
    await saveFill(
      writes,
      bot.botId,
      user.id,
      { ...part, qty: '0.05', quote: '100', fee: '0.1' },
      bot.state,
      2000,
    );
    await saveFill(writes, bot.botId, user.id, part, bot.state, 2000);
    const priced = { seq: 1, side: 'sell' as const, pnl: '5.99', onRow: true as const };
    await Promise.all([
      saveFill(writes, bot.botId, user.id, priced, bot.state, 2000),
      saveFill(writes, bot.botId, user.id, priced, bot.state, 2000),
    ]);
    await saveFill(writes, bot.botId, user.id, priced, bot.state, 2000);
    expect(await booksOf(bot.botId)).toEqual({ profit: '5.99', loss: '0.00', fills: 1 });
    const [row] = await t.deps.db.select().from(botFills).where(eq(botFills.botId, bot.botId));
    expect(row).toMatchObject({ qty: '0.1', quote: '200', fee: '0.2' });
    expect(Number(row!.pnl)).toBe(5.99);
    await t.deps.db.update(bots).set({ status: 'Stopped' }).where(eq(bots.id, bot.botId));
  });

  it('give the dashboard totals, the History books and the Order Book total, for the user only', async () => {
    const user = await trader('totals');
    const other = await trader('others');
    const running = await parkedBot(user.id);
    const stopped = await parkedBot(user.id);
    const save = (bot: typeof running, seq: number, cents: number | null) =>
      saveFill(writes, bot.botId, user.id, fill(seq, cents), bot.state, 2000);
    await save(running, 1, null);
    await save(running, 2, 1250);
    await save(running, 3, -300);
    await save(stopped, 1, null);
    await save(stopped, 2, 475);
    await save(stopped, 3, -125);
    await save(stopped, 3, -125); // written twice: counted once
    await t.deps.db
      .update(bots)
      .set({ status: 'Stopped', stoppedAt: new Date(), closedPrice: '2000', stopReason: 'manual' })
      .where(eq(bots.id, stopped.botId));

    const totals = await call(t, 'GET', '/api/totalprofitbookdata', undefined, user.auth);
    // Fresh engine states hold nothing, so the total PnL is the two books.
    expect(totals.body).toEqual({ totalProfit: 17.25, lossBook: -4.25, totalpnl: 13 });
    const book = await call(t, 'POST', '/api/orderbook', { botID: running.botId }, user.auth);
    expect(book.body).toMatchObject({ total: 3, page: 1, pages: 1 });
    expect(book.body.orders).toHaveLength(3);
    const history = await call(t, 'GET', '/api/bothistory', undefined, user.auth);
    expect(history.body.rows).toMatchObject([{ id: stopped.botId, profit: 4.75, lossbook: -1.25 }]);
    const theirs = await call(t, 'GET', '/api/totalprofitbookdata', undefined, other.auth);
    expect(theirs.body).toEqual({ totalProfit: 0, lossBook: 0, totalpnl: 0 });
  });
});
