import { strategyMessages as m } from '@gridbot/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../testing/http';
import { multigridBody, scalpingBody } from '../../testing/strategies';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await registerUser(t, 'strv')).token;
});
afterAll(async () => {
  await t.close();
});

const post = (url: string, body: unknown) => call(t, 'POST', url, body, { token });

/** A 4-grid Multigrid body with one cell of grid `grid` replaced. */
function multigridCell(grid: number, key: string, value: unknown) {
  const body = multigridBody('Cells', 4);
  body.tableData[grid - 1] = {
    ...body.tableData[grid - 1]!,
    [key]: value,
  } as (typeof body.tableData)[number];
  return body;
}
function scalpingCell(grid: number, key: string, value: unknown) {
  const body = scalpingBody('Cells', 4);
  body.tableData[grid - 1] = {
    ...body.tableData[grid - 1]!,
    [key]: value,
  } as (typeof body.tableData)[number];
  return body;
}

const A = 'allottedAmountPercentagePerOrder';
const fullTable = (n: number) => multigridBody('Full', n).tableData;

// docs/spec/01-core-screens.md §5 grid strategy creation and edit, plus the per-cell bounds (each with its own message).
const multigridCases: [string, unknown, string][] = [
  ['name missing', { ...multigridBody('x'), strategyName: undefined }, m.nameRequired],
  ['name blank', multigridBody('   '), m.nameRequired],
  ['name 41 chars', multigridBody('n'.repeat(41)), m.nameMax],
  ['grids missing', { ...multigridBody('x'), noOfGrids: undefined }, m.gridsMultigrid],
  ['grids 0', { ...multigridBody('x'), noOfGrids: 0 }, m.gridsMultigrid],
  ['grids 51', { ...multigridBody('x'), noOfGrids: 51, tableData: fullTable(51) }, m.gridsMultigrid],
  ['grids "3 grids"', { ...multigridBody('x'), noOfGrids: '3 grids' }, m.gridsMultigrid],
  ['grids 1.5', { ...multigridBody('x'), noOfGrids: 1.5 }, m.gridsMultigrid],
  ['grids "100"', { ...multigridBody('x'), noOfGrids: '100' }, m.gridsMultigrid],
  ['rows ≠ grids', { ...multigridBody('x'), noOfGrids: 5 }, m.tableRows(5)],
  ['table missing', { ...multigridBody('x'), tableData: undefined }, m.tableRequired],
  ['row not an object', { ...multigridBody('x', 1), tableData: [5] }, m.rowType],
  ['total 99.98', multigridCell(4, A, 24.98), m.totalAllotted('99.98')],
  ['total 110', multigridCell(1, A, 35), m.totalAllotted('110')],
  ['allotted blank', multigridCell(2, A, ''), m.allottedRequired(2)],
  ['allotted 0', multigridCell(2, A, 0), m.allottedRange(2)],
  ['allotted 101', multigridCell(2, A, 101), m.allottedRange(2)],
  ['allotted text', multigridCell(2, A, 'ten'), m.allottedRange(2)],
  ['grid 1 buy a number', multigridCell(1, 'buyPercentage', 1), m.marketPrice],
  ['grid 1 buy up a number', multigridCell(1, 'buyPercentageUp', '0.2'), m.marketPrice],
  ['buy missing', multigridCell(3, 'buyPercentage', undefined), m.buyRequired(3)],
  ['buy 0', multigridCell(3, 'buyPercentage', 0), m.buyRange(3)],
  ['buy 100', multigridCell(3, 'buyPercentage', '100'), m.buyRange(3)],
  ['buy -1', multigridCell(3, 'buyPercentage', -1), m.buyRange(3)],
  ['buy marketprice on grid 3', multigridCell(3, 'buyPercentage', 'marketprice'), m.buyRange(3)],
  ['buy up missing', multigridCell(3, 'buyPercentageUp', null), m.buyUpRequired(3)],
  ['buy up -0.1', multigridCell(3, 'buyPercentageUp', -0.1), m.buyUpRange(3)],
  ['buy up 100', multigridCell(3, 'buyPercentageUp', 100), m.buyUpRange(3)],
  ['take-profit missing', multigridCell(4, 'takeProfitPercentage', ''), m.takeProfitRequired(4)],
  ['take-profit 0', multigridCell(4, 'takeProfitPercentage', 0), m.takeProfitRange(4)],
  ['take-profit 1001', multigridCell(4, 'takeProfitPercentage', 1001), m.takeProfitRange(4)],
  [
    'take-profit down missing',
    multigridCell(1, 'takeProfitPercentageDown', ' '),
    m.takeProfitDownRequired(1),
  ],
  ['take-profit down -1', multigridCell(1, 'takeProfitPercentageDown', -1), m.takeProfitDownRange(1)],
  ['take-profit down 100', multigridCell(1, 'takeProfitPercentageDown', 100), m.takeProfitDownRange(1)],
  ['cell of wrong type', multigridCell(2, 'takeProfitPercentage', [1]), m.cellType],
];

const scalpingCases: [string, unknown, string][] = [
  ['name blank', scalpingBody(''), m.nameRequired],
  ['grids 11', { ...scalpingBody('x'), noOfGrids: 11 }, m.gridsScalping],
  ['grids 0', { ...scalpingBody('x'), noOfGrids: '0' }, m.gridsScalping],
  ['total 80', scalpingCell(1, A, 5), m.totalAllotted('80')],
  ['allotted blank', scalpingCell(3, A, null), m.allottedRequired(3)],
  ['buy 0', scalpingCell(2, 'buyPercentage', '0'), m.buyRange(2)],
  ['buy 100', scalpingCell(2, 'buyPercentage', 100), m.buyRange(2)],
  ['grid 1 buy a number', scalpingCell(1, 'buyPercentage', 2), m.marketPrice],
  [
    'take-profit missing',
    { ...scalpingBody('x'), takeProfitPercentage: undefined },
    m.scalpTakeProfitRequired,
  ],
  ['take-profit 0', { ...scalpingBody('x'), takeProfitPercentage: 0 }, m.scalpTakeProfitRange],
  ['take-profit 1001', { ...scalpingBody('x'), takeProfitPercentage: '1001' }, m.scalpTakeProfitRange],
];

describe('strategy validation messages', () => {
  it.each(multigridCases)('Multigrid create: %s', async (_name, body, message) => {
    expect(await post('/api/strategy', body)).toMatchObject({ status: 400, body: { message } });
  });

  it.each(multigridCases)('Multigrid edit: %s', async (_name, body, message) => {
    expect(await post('/api/stratagyedit', { dataToSend: body })).toMatchObject({
      status: 400,
      body: { message },
    });
  });

  it.each(scalpingCases)('Scalping create: %s', async (_name, body, message) => {
    expect(await post('/api/strategyscalp', body)).toMatchObject({ status: 400, body: { message } });
  });

  it.each(scalpingCases)('Scalping edit: %s', async (_name, body, message) => {
    expect(await post('/api/scalpstratagyedit', { dataToSend: body })).toMatchObject({
      status: 400,
      body: { message },
    });
  });

  it('accepts each bound at its edge', async () => {
    const body = multigridBody('Edges', 3);
    body.tableData = [
      { ...body.tableData[0]!, [A]: 0.005, takeProfitPercentage: 1000, takeProfitPercentageDown: 0 },
      { ...body.tableData[1]!, [A]: 49.995, buyPercentage: 99.9999, buyPercentageUp: 0 },
      { ...body.tableData[2]!, [A]: '50.01', buyPercentage: '0.0001', buyPercentageUp: '99.99' },
    ];
    expect((await post('/api/strategy', body)).status).toBe(200);
    expect((await post('/api/strategy', { ...multigridBody('Fifty Grids', 50) })).status).toBe(200);
    expect((await post('/api/strategyscalp', { ...scalpingBody('Ten Grids', 10) })).status).toBe(200);
    const one = multigridBody('One Grid', 1);
    expect(one.tableData[0]?.[A]).toBe(100);
    expect((await post('/api/strategy', one)).status).toBe(200);
  });

  it('answers lookups without a name', async () => {
    expect(await post('/api/stratagybypara', {})).toMatchObject({
      status: 400,
      body: { message: m.strategyNameParamRequired },
    });
    expect((await post('/api/noofgrid', { strategyName: '' })).body.message).toBe(
      m.strategyNameParamRequired,
    );
  });
});

describe('malformed strategy requests never cause a 500', () => {
  const routes = [
    '/api/strategy',
    '/api/strategyscalp',
    '/api/stratagybypara',
    '/api/scalpstratagybypara',
    '/api/stratagyedit',
    '/api/scalpstratagyedit',
    '/api/deletestrategy',
    '/api/scalpdeletestrategy',
    '/api/noofgrid',
    '/api/copystrategy',
  ];

  it('survives random JSON on every strategy route', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.jsonValue(), async (url, body) => {
        const res = await post(url, body);
        expect(res.status).toBeGreaterThanOrEqual(200);
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect(res.body.message).toEqual(expect.any(String));
      }),
      { numRuns: 200 },
    );
  });

  it('survives valid bodies with random JSON in one field or cell', async () => {
    const keys = [A, 'buyPercentage', 'buyPercentageUp', 'takeProfitPercentage', 'takeProfitPercentageDown'];
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.constantFrom('strategyName', 'noOfGrids', 'tableData', 'takeProfitPercentage', ...keys),
        fc.integer({ min: 0, max: 3 }),
        fc.jsonValue(),
        fc.boolean(),
        async (scalp, key, row, value, asEdit) => {
          const body: Record<string, unknown> = scalp
            ? scalpingBody(`Fuzz ${row}`, 4)
            : multigridBody(`Fuzz ${row}`, 4);
          if (keys.includes(key)) {
            const rows = body.tableData as Record<string, unknown>[];
            rows[row] = { ...rows[row], [key]: value };
          } else body[key] = value;
          const url = scalp
            ? asEdit
              ? '/api/scalpstratagyedit'
              : '/api/strategyscalp'
            : asEdit
              ? '/api/stratagyedit'
              : '/api/strategy';
          const res = await post(url, asEdit ? { dataToSend: body } : body);
          expect(res.status).toBeGreaterThanOrEqual(200);
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect(res.body.message).toEqual(expect.any(String));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('answers bad JSON with 400', async () => {
    const res = await call(t, 'POST', '/api/strategy', undefined, { token, raw: '{"strategyName":' });
    expect(res).toMatchObject({ status: 400, body: { message: 'The request body is not valid JSON.' } });
  });
});
