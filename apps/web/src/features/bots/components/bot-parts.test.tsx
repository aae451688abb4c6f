import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Stat } from './bot-parts';

describe('Stat', () => {
  it('keeps the whole figure on hover when its box cuts it short', () => {
    render(
      <dl>
        <Stat label="Purchased Qty" value="0.00711870" />
        <Stat label="Total Trades" value={12} />
      </dl>,
    );
    expect(screen.getByText('0.00711870')).toHaveAttribute('title', '0.00711870');
    expect(screen.getByText('12')).toHaveAttribute('title', '12');
  });

  it('gives a figure drawn as markup no title of its own', () => {
    render(
      <dl>
        <Stat label="Net P&L" value={<span>-$2.78</span>} />
      </dl>,
    );
    expect(screen.getByText('-$2.78').closest('dd')).not.toHaveAttribute('title');
  });
});
