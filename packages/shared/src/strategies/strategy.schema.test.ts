import { describe, expect, it } from 'vitest';
import { firstIssueMessage } from '../common/fields';
import { strategyMessages as m } from './strategy.messages';
import { multigridStrategySchema, scalpingStrategySchema } from './strategy.schema';

const row = (i: number, over: Record<string, unknown> = {}) => ({
  gridNo: i + 1,
  allottedAmountPercentagePerOrder: 25,
  buyPercentage: i === 0 ? 'marketprice' : 1.2,
  buyPercentageUp: i === 0 ? 'marketprice' : 0.2,
  takeProfitPercentage: 1.2,
  takeProfitPercentageDown: 0.2,
  ...over,
});
const multigrid = (rows = [0, 1, 2, 3].map((i) => row(i))) => ({
  strategyName: 'Ladder',
  noOfGrids: rows.length,
  tableData: rows,
});
const firstMessage = (body: unknown) => {
  const res = multigridStrategySchema.safeParse(body);
  return res.success ? 'ok' : firstIssueMessage(res.error);
};
const withCell = (i: number, key: string, value: unknown) => {
  const rows = [0, 1, 2, 3].map((k) => row(k));
  rows[i] = row(i, { [key]: value });
  return multigrid(rows);
};

describe('multigrid strategy schema', () => {
  it('parses numbers and numeric strings into percent lists', () => {
    const res = multigridStrategySchema.parse(
      multigrid([
        row(0, { allottedAmountPercentagePerOrder: '40' }),
        row(1, { allottedAmountPercentagePerOrder: 60, buyPercentage: ' 2.5 ' }),
      ]),
    );
    expect(res).toEqual({
      kind: 'multigrid',
      strategyName: 'Ladder',
      noOfGrids: 2,
      allottedPct: [40, 60],
      buyPct: [2.5],
      buyUpPct: [0.2],
      takeProfitPct: [1.2, 1.2],
      takeProfitDownPct: [0.2, 0.2],
    });
  });

  it('accepts grid 1 buy cells absent or blank', () => {
    const { buyPercentage: _b, buyPercentageUp: _u, ...first } = row(0);
    expect(firstMessage(multigrid([first as ReturnType<typeof row>, row(1), row(2), row(3)]))).toBe('ok');
    expect(firstMessage(withCell(0, 'buyPercentage', ''))).toBe('ok');
    expect(firstMessage(withCell(0, 'buyPercentage', 5))).toBe(m.marketPrice);
  });

  it.each([
    ['allottedAmountPercentagePerOrder', '', m.allottedRequired(3)],
    ['allottedAmountPercentagePerOrder', 0, m.allottedRange(3)],
    ['allottedAmountPercentagePerOrder', -1, m.allottedRange(3)],
    ['allottedAmountPercentagePerOrder', 'abc', m.allottedRange(3)],
    ['buyPercentage', undefined, m.buyRequired(3)],
    ['buyPercentage', 0, m.buyRange(3)],
    ['buyPercentage', 100, m.buyRange(3)],
    ['buyPercentage', '1e', m.buyRange(3)],
    ['buyPercentageUp', null, m.buyUpRequired(3)],
    ['buyPercentageUp', -0.1, m.buyUpRange(3)],
    ['buyPercentageUp', 100, m.buyUpRange(3)],
    ['takeProfitPercentage', '', m.takeProfitRequired(3)],
    ['takeProfitPercentage', 0, m.takeProfitRange(3)],
    ['takeProfitPercentage', 1000.5, m.takeProfitRange(3)],
    ['takeProfitPercentageDown', ' ', m.takeProfitDownRequired(3)],
    ['takeProfitPercentageDown', -1, m.takeProfitDownRange(3)],
    ['takeProfitPercentageDown', 100, m.takeProfitDownRange(3)],
    ['buyPercentage', true, m.cellType],
  ])('grid 3 %s = %j → %s', (key, value, message) => {
    expect(firstMessage(withCell(2, key, value))).toBe(message);
  });

  it('accepts the edges of each range', () => {
    expect(firstMessage(withCell(2, 'buyPercentageUp', 0))).toBe('ok');
    expect(firstMessage(withCell(2, 'takeProfitPercentageDown', '0'))).toBe('ok');
    expect(firstMessage(withCell(2, 'buyPercentage', 99.99))).toBe('ok');
    expect(firstMessage(withCell(2, 'takeProfitPercentage', 1000))).toBe('ok');
  });

  it('requires the allotments to total 100 within 0.01', () => {
    expect(firstMessage(withCell(3, 'allottedAmountPercentagePerOrder', 24.99))).toBe('ok');
    expect(firstMessage(withCell(3, 'allottedAmountPercentagePerOrder', 25.01))).toBe('ok');
    expect(firstMessage(withCell(3, 'allottedAmountPercentagePerOrder', 24.98))).toBe(
      m.totalAllotted('99.98'),
    );
    expect(firstMessage(withCell(3, 'allottedAmountPercentagePerOrder', 30))).toBe(m.totalAllotted('105'));
    expect(m.totalAllotted('105')).toBe('Total allotted amount should be 100%. Current total: 105%');
  });

  it.each([0, 51, 2.5, '051', '1a', '', null, 'x'])('refuses %j grids with the spec message', (n) => {
    expect(firstMessage({ ...multigrid(), noOfGrids: n })).toBe(m.gridsMultigrid);
  });

  it('accepts 50 grids and the string form of the count', () => {
    const rows = Array.from({ length: 50 }, (_, i) => row(i, { allottedAmountPercentagePerOrder: 2 }));
    expect(firstMessage({ ...multigrid(rows), noOfGrids: '50' })).toBe('ok');
  });

  it('needs one row per grid', () => {
    expect(firstMessage({ ...multigrid(), noOfGrids: 5 })).toBe(m.tableRows(5));
    expect(firstMessage({ ...multigrid(), tableData: undefined })).toBe(m.tableRequired);
  });

  it.each([
    ['', m.nameRequired],
    ['   ', m.nameRequired],
    [undefined, m.nameRequired],
    ['a'.repeat(41), m.nameMax],
    ['bad\u0001name', m.nameInvalid],
  ])('name %j → %s', (name, message) => {
    expect(firstMessage({ ...multigrid(), strategyName: name })).toBe(message);
  });

  it('trims the name and takes 40 characters', () => {
    const res = multigridStrategySchema.parse({ ...multigrid(), strategyName: `  ${'n'.repeat(40)} ` });
    expect(res.strategyName).toBe('n'.repeat(40));
  });
});

describe('scalping strategy schema', () => {
  const srow = (i: number, allotted = 10) => ({
    gridNo: i + 1,
    allottedAmountPercentagePerOrder: allotted,
    buyPercentage: i === 0 ? 'marketprice' : '1.5',
  });
  const scalp = (over: Record<string, unknown> = {}) => ({
    strategyName: 'Quick',
    noOfGrids: 10,
    tableData: Array.from({ length: 10 }, (_, i) => srow(i)),
    takeProfitPercentage: 3,
    ...over,
  });
  const first = (body: unknown) => {
    const res = scalpingStrategySchema.safeParse(body);
    return res.success ? 'ok' : firstIssueMessage(res.error);
  };

  it('parses a 10-grid strategy with one take-profit', () => {
    expect(scalpingStrategySchema.parse(scalp())).toMatchObject({
      kind: 'scalping',
      noOfGrids: 10,
      buyPct: Array(9).fill(1.5),
      takeProfitPct: 3,
    });
  });

  it('requires the take-profit when its key is absent', () => {
    const { takeProfitPercentage: _tp, ...body } = scalp();
    expect(first(body)).toBe(m.scalpTakeProfitRequired);
  });

  it('refuses 11 grids with the scalping message', () => {
    expect(first(scalp({ noOfGrids: 11 }))).toBe(m.gridsScalping);
  });

  it.each([
    [undefined, m.scalpTakeProfitRequired],
    ['', m.scalpTakeProfitRequired],
    [0, m.scalpTakeProfitRange],
    [1001, m.scalpTakeProfitRange],
  ])('take-profit %j → %s', (tp, message) => {
    expect(first(scalp({ takeProfitPercentage: tp }))).toBe(message);
  });

  it('checks the total and the buy cells', () => {
    const rows = Array.from({ length: 10 }, (_, i) => srow(i, i === 0 ? 11 : 10));
    expect(first(scalp({ tableData: rows }))).toBe(m.totalAllotted('101'));
    const bad = Array.from({ length: 10 }, (_, i) => srow(i));
    bad[4] = { ...srow(4), buyPercentage: '0' };
    expect(first(scalp({ tableData: bad }))).toBe(m.buyRange(5));
  });
});
