import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OrderBook } from './order-book';

describe('Order Book', () => {
  it('shows a futures funding payment as its own FUNDING row with its signed amount', () => {
    render(
      <OrderBook
        data={{
          orders: [
            {
              date: '2025-05-05T08:00:01.000Z',
              price: 2000,
              type: 'FUNDING',
              quantity: 0.4,
              cummulativeQuoteQty: 800,
              pnl: -0.08,
              grid: 0,
            },
            {
              date: '2025-05-05T07:00:00.000Z',
              price: 2000,
              type: 'BUY',
              quantity: 0.4,
              cummulativeQuoteQty: 800,
              pnl: 0,
              grid: 1,
            },
          ],
          total: 2,
          page: 1,
          pages: 1,
        }}
        loading={false}
        page={1}
        onPageChange={() => {}}
      />,
    );
    const rows = within(screen.getByRole('table', { name: 'Order Book' })).getAllByRole('row');
    const funding = rows[1] as HTMLElement;
    expect(within(funding).getByText('FUNDING')).toHaveClass('text-muted');
    expect(within(funding).getByText('-$0.08')).toHaveClass('text-down');
    expect(within(rows[2] as HTMLElement).getByText('BUY')).toHaveClass('text-up');
  });
});
