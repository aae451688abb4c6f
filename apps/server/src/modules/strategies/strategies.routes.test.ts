import { bots } from '@gridbot/db';
import { parseStrategy } from '@gridbot/engine';
import { strategyMessages as m, type StoredStrategy } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../testing/http';
import { multigridBody, scalpingBody } from '../../testing/strategies';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let alice: string;
let bob: string;
beforeAll(async () => {
  t = await createTestApp();
  alice = (await registerUser(t, 'stra')).token;
  bob = (await registerUser(t, 'strb')).token;
});
afterAll(async () => {
  await t.close();
});

const post = (url: string, body: unknown, token = alice) => call(t, 'POST', url, body, { token });
const get = (url: string, token = alice) => call(t, 'GET', url, undefined, { token });
const strategiesOf = (res: { body: Record<string, unknown> }) => res.body.strategies as StoredStrategy[];
const sum = (values: number[]) => values.reduce((s, n) => s + n, 0);

async function userIdOf(token: string): Promise<string> {
  const me = await get('/api/me', token);
  return (me.body.user as { id: string }).id;
}

describe('creating strategies', () => {
  it('saves a Multigrid strategy in the stored format of docs/spec/01-core-screens.md §3', async () => {
    const body = multigridBody('Thirds', 3);
    body.tableData = body.tableData.map((r) => ({ ...r, allottedAmountPercentagePerOrder: '33.33' }));
    body.tableData[1] = { ...body.tableData[1]!, buyPercentage: '2.5', takeProfitPercentage: 3 };
    const res = await post('/api/strategy', body);
    expect(res).toMatchObject({ status: 200, body: { success: true, message: m.saved } });

    const list = strategiesOf(await get('/api/mystratagieslist'));
    const saved = list.find((s) => s.strategy_name === 'Thirds');
    expect(saved).toMatchObject({
      type: 'multigrid',
      No_of_order: 3,
      status: 'active',
      system: false,
      buy_percentage: [2.5, 1.2],
      buy_percentage_up: [0.2, 0.2],
      takeprofit_percentage: [1.2, 3, 1.2],
      takeprofit_percentage_down: [0.2, 0.2, 0.2],
    });
    const fractions = saved?.allotted_amount_percentage_per_order ?? [];
    expect(fractions).toEqual([0.3333, 0.3333, 0.3334]);
    expect(Math.abs(sum(fractions) - 1)).toBeLessThan(1e-9);
    expect(parseStrategy(saved).ok).toBe(true);
  });

  it('saves a Scalping strategy with one take-profit value', async () => {
    const res = await post(
      '/api/strategyscalp',
      scalpingBody('Quick Ten', 10, { takeProfitPercentage: '2.5' }),
    );
    expect(res.status).toBe(200);
    const saved = strategiesOf(await get('/api/scalpmystratagieslist')).find(
      (s) => s.strategy_name === 'Quick Ten',
    );
    expect(saved).toMatchObject({ type: 'scalping', No_of_order: 10, takeprofit_percentage: 2.5 });
    expect(saved?.buy_percentage).toHaveLength(9);
    expect(saved).not.toHaveProperty('buy_percentage_up');
    expect(Math.abs(sum(saved?.allotted_amount_percentage_per_order ?? []) - 1)).toBeLessThan(1e-9);
    expect(parseStrategy(saved).ok).toBe(true);
  });

  it('saves a 50-grid Multigrid strategy whose allotments do not divide evenly', async () => {
    const body = multigridBody('Fifty', 50);
    body.tableData = body.tableData.map((r, i) => ({
      ...r,
      allottedAmountPercentagePerOrder: i < 49 ? 100 / 3 / 49 : 100 * (2 / 3),
    }));
    expect((await post('/api/strategy', body)).status).toBe(200);
    const saved = (await post('/api/stratagybypara', { strategy_name: 'fifty' })).body
      .strategy as StoredStrategy;
    expect(saved.allotted_amount_percentage_per_order).toHaveLength(50);
    expect(Math.abs(sum(saved.allotted_amount_percentage_per_order) - 1)).toBeLessThan(1e-9);
  });

  it('refuses a duplicate name in any case, per user and kind', async () => {
    expect((await post('/api/strategy', multigridBody('Dup Name'))).status).toBe(200);
    for (const name of ['Dup Name', 'DUP NAME', ' dup name ']) {
      const res = await post('/api/strategy', multigridBody(name));
      expect(res).toEqual({ status: 409, body: { message: m.duplicateName } });
    }
    expect((await post('/api/strategyscalp', scalpingBody('dup name'))).status).toBe(200);
    expect((await post('/api/strategyscalp', scalpingBody('Dup NAME'))).body.message).toBe(m.duplicateName);
    expect((await post('/api/strategy', multigridBody('Dup Name'), bob)).status).toBe(200);
  });

  it('refuses the name of a system strategy of the same kind', async () => {
    const res = await post('/api/strategy', multigridBody('steady ladder 10'));
    expect(res).toEqual({ status: 409, body: { message: m.duplicateName } });
  });

  it('needs a signed-in user', async () => {
    const res = await call(t, 'POST', '/api/strategy', multigridBody('Anon'));
    expect(res.status).toBe(401);
    expect((await call(t, 'GET', '/api/mystratagieslist')).status).toBe(401);
  });
});

describe('reading, editing and deleting', () => {
  it('reads a strategy by name with its in-use flag', async () => {
    await post('/api/strategy', multigridBody('Readable', 2));
    const res = await post('/api/stratagybypara', { strategy_name: 'Readable' });
    expect(res).toMatchObject({
      status: 200,
      body: { inUse: false, strategy: { strategy_name: 'Readable', No_of_order: 2 } },
    });
    expect(await post('/api/stratagybypara', { strategy_name: 'Nope' })).toEqual({
      status: 404,
      body: { message: m.notFound },
    });
    expect((await post('/api/scalpstratagybypara', { strategy_name: 'Readable' })).status).toBe(404);
  });

  it('edits the table, keeps the name and grid count, and answers the new values', async () => {
    await post('/api/strategy', multigridBody('Editable', 2));
    const next = multigridBody('Editable', 2);
    next.tableData[1] = { ...next.tableData[1]!, buyPercentage: 4, takeProfitPercentage: 2 };
    const res = await post('/api/stratagyedit', { dataToSend: next });
    expect(res).toMatchObject({ status: 200, body: { success: true, message: m.updated, inUse: false } });
    const read = (await post('/api/stratagybypara', { strategy_name: 'Editable' })).body.strategy;
    expect(read).toMatchObject({ buy_percentage: [4], takeprofit_percentage: [1.2, 2] });

    const grown = await post('/api/stratagyedit', { dataToSend: multigridBody('Editable', 3) });
    expect(grown).toEqual({ status: 400, body: { message: m.gridCountFixed } });
    const missing = await post('/api/stratagyedit', { dataToSend: multigridBody('Missing', 2) });
    expect(missing.status).toBe(404);
  });

  it('edits a Scalping strategy', async () => {
    await post('/api/strategyscalp', scalpingBody('Scalp Edit', 3));
    const res = await post('/api/scalpstratagyedit', {
      dataToSend: scalpingBody('scalp edit', 3, { takeProfitPercentage: 4 }),
    });
    expect(res.status).toBe(200);
    const read = await post('/api/scalpstratagybypara', { strategy_name: 'Scalp Edit' });
    expect(read.body.strategy).toMatchObject({ takeprofit_percentage: 4, strategy_name: 'Scalp Edit' });
  });

  it('deletes an own strategy', async () => {
    await post('/api/strategy', multigridBody('Doomed'));
    expect(await post('/api/deletestrategy', { strategy_name: 'Doomed' })).toEqual({
      status: 200,
      body: { success: true, message: m.deleted },
    });
    expect((await post('/api/stratagybypara', { strategy_name: 'Doomed' })).status).toBe(404);
    expect((await post('/api/deletestrategy', { strategy_name: 'Doomed' })).status).toBe(404);
  });

  it('refuses to delete a strategy a Live or Pause bot uses; a Stopped bot does not block', async () => {
    const created = await post('/api/strategyscalp', scalpingBody('Busy', 2));
    const strategy = created.body.strategy as StoredStrategy;
    const userId = await userIdOf(alice);
    const bot = {
      userId,
      botType: 'scalping' as const,
      strategyId: strategy._id,
      strategyName: strategy.strategy_name,
      strategySnapshot: strategy,
      symbol: 'BTCUSDT',
      category: 'Spot' as const,
      investment: '100',
    };
    const [live] = await t.deps.db
      .insert(bots)
      .values({ ...bot, status: 'Live' })
      .returning();
    const read = await post('/api/scalpstratagybypara', { strategy_name: 'Busy' });
    expect(read.body.inUse).toBe(true);
    const edited = await post('/api/scalpstratagyedit', { dataToSend: scalpingBody('Busy', 2) });
    expect(edited).toMatchObject({ status: 200, body: { inUse: true } });

    expect(await post('/api/scalpdeletestrategy', { strategy_name: 'Busy' })).toEqual({
      status: 409,
      body: { message: m.inUse },
    });
    await t.deps.db.update(bots).set({ status: 'Pause' }).where(eq(bots.id, live!.id));
    expect((await post('/api/scalpdeletestrategy', { strategy_name: 'Busy' })).body.message).toBe(m.inUse);
    await t.deps.db.update(bots).set({ status: 'Stopped' }).where(eq(bots.id, live!.id));
    expect((await post('/api/scalpdeletestrategy', { strategy_name: 'Busy' })).body.message).toBe(m.deleted);
    const [after] = await t.deps.db.select().from(bots).where(eq(bots.id, live!.id));
    expect(after?.strategyId).toBeNull();
    expect(after?.strategySnapshot).toMatchObject({ strategy_name: 'Busy' });
  });

  it('counts a running bot that names the strategy without its id', async () => {
    await post('/api/strategy', multigridBody('Named Only'));
    await t.deps.db.insert(bots).values({
      userId: await userIdOf(alice),
      botType: 'multigrid',
      strategyName: 'named only',
      strategySnapshot: { type: 'multigrid' } as never,
      symbol: 'ETHUSDT',
      category: 'Future',
      investment: '250',
      leverage: 3,
    });
    expect((await post('/api/deletestrategy', { strategy_name: 'Named Only' })).body.message).toBe(m.inUse);
  });
});

describe('another user', () => {
  it('answers 404 for every read, edit and delete of someone else’s strategy', async () => {
    await post('/api/strategy', multigridBody('Private M', 2), bob);
    await post('/api/strategyscalp', scalpingBody('Private S', 2), bob);
    const cases: [string, unknown][] = [
      ['/api/stratagybypara', { strategy_name: 'Private M' }],
      ['/api/stratagyedit', { dataToSend: multigridBody('Private M', 2) }],
      ['/api/deletestrategy', { strategy_name: 'Private M' }],
      ['/api/scalpstratagybypara', { strategy_name: 'Private S' }],
      ['/api/scalpstratagyedit', { dataToSend: scalpingBody('Private S', 2) }],
      ['/api/scalpdeletestrategy', { strategy_name: 'Private S' }],
      ['/api/noofgrid', { strategyName: 'Private M' }],
      ['/api/noofgrid', { strategyName: 'Private S', kind: 'scalping' }],
      ['/api/copystrategy', { strategy_name: 'Private M', kind: 'multigrid' }],
    ];
    for (const [url, body] of cases) {
      expect(await post(url, body), url).toEqual({ status: 404, body: { message: m.notFound } });
    }
    for (const url of ['/api/mystratagieslist', '/api/mystratagies']) {
      expect(strategiesOf(await get(url)).map((s) => s.strategy_name)).not.toContain('Private M');
    }
    for (const url of ['/api/scalpmystratagieslist', '/api/mystratagiesscalping']) {
      expect(strategiesOf(await get(url)).map((s) => s.strategy_name)).not.toContain('Private S');
    }
    // Bob still has both, unchanged.
    expect((await post('/api/stratagybypara', { strategy_name: 'Private M' }, bob)).status).toBe(200);
    expect((await post('/api/scalpstratagybypara', { strategy_name: 'Private S' }, bob)).status).toBe(200);
  });
});

describe('system strategies and grid counts', () => {
  it('lists read-only system strategies of each kind for every user', async () => {
    const multi = strategiesOf(await get('/api/systemstrategy'));
    const scalp = strategiesOf(await get('/api/systemstrategyscalping', bob));
    expect(multi.length).toBeGreaterThanOrEqual(3);
    expect(scalp.length).toBeGreaterThanOrEqual(3);
    for (const s of [...multi, ...scalp]) {
      expect(s.system).toBe(true);
      expect(Math.abs(sum(s.allotted_amount_percentage_per_order) - 1)).toBeLessThan(1e-9);
      expect(parseStrategy(s).ok).toBe(true);
    }
    expect(multi.every((s) => s.type === 'multigrid')).toBe(true);
    expect(scalp.every((s) => s.type === 'scalping' && s.No_of_order <= 10)).toBe(true);
  });

  it('reads a system strategy but refuses to edit or delete it', async () => {
    const read = await post('/api/stratagybypara', { strategy_name: 'Steady Ladder 10' });
    expect(read).toMatchObject({ status: 200, body: { strategy: { system: true, No_of_order: 10 } } });
    const edit = await post('/api/stratagyedit', { dataToSend: multigridBody('Steady Ladder 10', 10) });
    expect(edit).toEqual({ status: 403, body: { message: m.systemReadOnly } });
    const del = await post('/api/scalpdeletestrategy', { strategy_name: 'Scalp Classic 5' });
    expect(del).toEqual({ status: 403, body: { message: m.systemReadOnly } });
  });

  it('copies a system strategy into the user’s own strategies under a free name', async () => {
    const first = await post('/api/copystrategy', { strategy_name: 'scalp classic 5', kind: 'scalping' });
    expect(first).toMatchObject({
      status: 200,
      body: { message: m.copied, strategy: { strategy_name: 'Scalp Classic 5 (copy)', system: false } },
    });
    const second = await post('/api/copystrategy', { strategy_name: 'Scalp Classic 5', kind: 'scalping' });
    expect((second.body.strategy as StoredStrategy).strategy_name).toBe('Scalp Classic 5 (copy 2)');
    const named = await post('/api/copystrategy', {
      strategy_name: 'Scalp Classic 5',
      kind: 'scalping',
      newName: 'Mine',
    });
    expect((named.body.strategy as StoredStrategy).strategy_name).toBe('Mine');
    const again = await post('/api/copystrategy', {
      strategy_name: 'Scalp Classic 5',
      kind: 'scalping',
      newName: 'MINE',
    });
    expect(again).toEqual({ status: 409, body: { message: m.duplicateName } });
    const edited = await post('/api/scalpstratagyedit', { dataToSend: scalpingBody('Mine', 5) });
    expect(edited.status).toBe(200);
  });

  it('answers the grid count of own and system strategies', async () => {
    await post('/api/strategyscalp', scalpingBody('Grid Count', 7));
    expect((await post('/api/noofgrid', { strategyName: 'grid count' })).body).toEqual({
      noOfGrid: 7,
      strategyName: 'Grid Count',
      kind: 'scalping',
    });
    expect((await post('/api/noofgrid', { strategyName: 'Deep Ladder 20' })).body.noOfGrid).toBe(20);
    expect((await post('/api/noofgrid', { strategyName: 'Grid Count', kind: 'multigrid' })).status).toBe(404);
  });
});
