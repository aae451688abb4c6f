import { buildLadder } from '@gridbot/shared';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LadderChart } from './ladder-chart';

const ladder = buildLadder({
  kind: 'multigrid',
  rows: [
    { allotted: 50, takeProfit: 2 },
    { allotted: 30, buy: 10, takeProfit: 2 },
    { allotted: 20, buy: 10, takeProfit: 2 },
  ],
});

// Every SVG path command must carry numbers only: one bad `d` makes the browser drop the whole line.
const validPath = /^M-?[\d.]+,-?[\d.]+( [HVL]-?[\d.]+(,-?[\d.]+)?| V-?[\d.]+)*$/;

describe('ladder chart', () => {
  it('draws the buy staircase with a valid path from 100 down to the deepest grid', () => {
    const { container, getByRole } = render(<LadderChart ladder={ladder} kind="multigrid" />);
    const stairs = container.querySelector('path[stroke="var(--primary)"]');
    expect(stairs?.getAttribute('d')).toMatch(validPath);
    expect(getByRole('img')).toHaveAccessibleName(expect.stringContaining('3 grids from 100 down to 81'));
    expect(container.querySelectorAll('circle')).toHaveLength(3);
    expect(container.querySelectorAll('g > title')[1]?.textContent).toBe(
      'Grid 2: buys at 90 (−10 %), 30 % of the investment, take-profit at 91.8',
    );
  });

  it('draws the scalping sell-all line on the average entry', () => {
    const scalp = buildLadder({
      kind: 'scalping',
      takeProfit: 3,
      rows: [{ allotted: 50 }, { allotted: 50, buy: 20 }],
    });
    const { container } = render(<LadderChart ladder={scalp} kind="scalping" />);
    expect(container.querySelector('polyline')?.getAttribute('points')?.split(' ')).toHaveLength(2);
  });
});
