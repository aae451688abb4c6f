import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { boxesLaidOutAt } from '../../testing/box-width';
import { onPhoneWidth } from '../../testing/phone-width';
import { CellInput, type DataColumn, DataTable, rowNumberColumn } from './data-table';

interface Reward {
  id: string;
  amount: string;
  user: string;
  paid: boolean;
}

const rewards: Reward[] = [
  { id: 'r1', amount: '$4.50', user: 'alice', paid: false },
  { id: 'r2', amount: '$7.00', user: 'bob', paid: true },
];

const columns: DataColumn<Reward>[] = [
  rowNumberColumn((i) => 10 + i + 1),
  { key: 'amount', header: 'Amount', cell: (r) => r.amount, align: 'right' },
  { key: 'user', header: 'Referred User', cell: (r) => r.user },
  {
    key: 'actions',
    header: <span className="sr-only">Actions</span>,
    label: 'Actions',
    cell: (r) => (r.paid ? null : <button type="button">{`Pay ${r.user}`}</button>),
  },
];

type Props = Partial<Parameters<typeof DataTable<Reward>>[0]>;

function renderTable(props: Props = {}) {
  return render(
    <DataTable
      caption="Reward History"
      columns={columns}
      rows={rewards}
      rowKey={(r) => r.id}
      loading={false}
      {...props}
    />,
  );
}

const fieldsOf = (card: HTMLElement) =>
  within(card)
    .getAllByRole('term')
    .map((term) => [term.textContent, term.nextElementSibling?.textContent]);

describe('DataTable', () => {
  it('shows a table with a header per column on wide screens', () => {
    renderTable();
    const table = screen.getByRole('table', { name: 'Reward History' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['No', 'Amount', 'Referred User', 'Actions']);
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('shows cards in a box narrower than 600 px on a wide screen (beside the sidebar on a tablet)', async () => {
    boxesLaidOutAt(420);
    renderTable();
    expect(await screen.findByRole('list', { name: 'Reward History' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    cleanup();
    boxesLaidOutAt(900);
    renderTable({ caption: 'Wide' });
    await Promise.resolve();
    expect(screen.getByRole('table', { name: 'Wide' })).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  describe('on a phone (below 768 px)', () => {
    it('shows each row as a card of labelled fields, numbered in its corner', () => {
      onPhoneWidth();
      renderTable();
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      const cards = within(screen.getByRole('list', { name: 'Reward History' })).getAllByRole('listitem');
      const [first, second] = cards as [HTMLElement, HTMLElement];
      expect(cards).toHaveLength(2);
      expect(within(first).getByText('#11')).toBeInTheDocument();
      expect(fieldsOf(first)).toEqual([
        ['Amount', '$4.50'],
        ['Referred User', 'alice'],
        ['Actions', 'Pay alice'],
      ]);
      // A column with nothing to show for the row (no action for a paid reward) is left out of its card.
      expect(within(second).getByText('#12')).toBeInTheDocument();
      expect(fieldsOf(second)).toEqual([
        ['Amount', '$7.00'],
        ['Referred User', 'bob'],
      ]);
    });

    it('keeps the table when asked to, for a narrow one that fits', () => {
      onPhoneWidth();
      renderTable({ tableOnPhone: true });
      expect(screen.getByRole('table', { name: 'Reward History' })).toBeInTheDocument();
      expect(screen.queryByRole('list')).not.toBeInTheDocument();
    });

    it('says Loading... as a status while loading', () => {
      onPhoneWidth();
      renderTable({ rows: undefined, loading: true });
      expect(screen.getByRole('status')).toHaveTextContent(/^Loading\.\.\.$/);
      expect(screen.queryByRole('list')).not.toBeInTheDocument();
    });

    it('shows the error as an alert with a Retry button', async () => {
      onPhoneWidth();
      const onRetry = vi.fn();
      renderTable({ rows: undefined, error: 'Could not load.', onRetry });
      const alert = screen.getByRole('alert');
      expect(alert).toHaveTextContent('Could not load.');
      await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
      expect(onRetry).toHaveBeenCalledOnce();
      expect(screen.queryByRole('list')).not.toBeInTheDocument();
    });

    it('says No Records Found. when there are no rows', () => {
      onPhoneWidth();
      renderTable({ rows: [] });
      expect(screen.getByText('No Records Found.')).toBeInTheDocument();
      expect(screen.queryByRole('list')).not.toBeInTheDocument();
      expect(screen.queryByRole('status')).not.toBeInTheDocument();
    });
  });

  it('sorts by a sortable column: its header is a button, the order shows in aria-sort', async () => {
    const onSort = vi.fn();
    const sortable = columns.map((c) => (c.key === 'amount' ? { ...c, sortable: true } : c));
    renderTable({ columns: sortable, sort: { key: 'amount', dir: 'desc' }, onSort });
    const header = screen.getByRole('columnheader', { name: /Amount/ });
    expect(header).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('columnheader', { name: 'Referred User' })).not.toHaveAttribute('aria-sort');
    await userEvent.click(within(header).getByRole('button'));
    expect(onSort).toHaveBeenCalledWith('amount');
  });

  it("shows the caller's own card on a phone when given one", () => {
    onPhoneWidth();
    renderTable({ renderCard: (r) => <p>{`${r.user} earned ${r.amount}`}</p> });
    const cards = within(screen.getByRole('list', { name: 'Reward History' })).getAllByRole('listitem');
    expect(cards.map((card) => card.textContent)).toEqual(['alice earned $4.50', 'bob earned $7.00']);
  });

  describe('with inputs in its cells (editable)', () => {
    interface Level {
      id: string;
      buy: string;
      sell: string;
    }
    const levels: Level[] = [
      { id: 'a', buy: '1', sell: '' },
      { id: 'b', buy: '2', sell: '3' },
    ];
    const editableColumns: DataColumn<Level>[] = [
      { key: 'n', header: 'No.', rowHeader: true, cell: (_r, i) => i + 1 },
      {
        key: 'buy',
        header: 'first',
        group: 'Buy (%)',
        headerTitle: 'Drop that arms the buy',
        cell: (r, i) => <CellInput label={`Level ${i + 1} buy`} defaultValue={r.buy} />,
      },
      {
        key: 'sell',
        header: 'second',
        group: 'Buy (%)',
        cell: (r, i) => (
          <CellInput
            label={`Level ${i + 1} sell`}
            defaultValue={r.sell}
            error={r.sell ? undefined : 'Enter a value'}
          />
        ),
      },
    ];

    it('keeps a table on a phone with row headers, a group header over its columns and labelled inputs', () => {
      onPhoneWidth();
      render(
        <DataTable
          caption="Levels"
          columns={editableColumns}
          rows={levels}
          rowKey={(r) => r.id}
          loading={false}
          editable
          stickyHeader
        />,
      );
      const table = screen.getByRole('table', { name: 'Levels' });
      const group = within(table).getByRole('columnheader', { name: 'Buy (%)' });
      expect(group).toHaveAttribute('colspan', '2');
      expect(within(table).getByRole('columnheader', { name: 'No.' })).toHaveAttribute('rowspan', '2');
      expect(within(table).getByRole('columnheader', { name: 'first' })).toHaveAttribute(
        'title',
        'Drop that arms the buy',
      );
      expect(
        within(table)
          .getAllByRole('rowheader')
          .map((h) => h.textContent),
      ).toEqual(['1', '2']);
      expect(screen.getByRole('textbox', { name: 'Level 2 buy' })).toHaveValue('2');
    });

    it("marks a cell's input invalid with its message as the tooltip", () => {
      render(
        <DataTable
          caption="Levels"
          columns={editableColumns}
          rows={levels}
          rowKey={(r) => r.id}
          loading={false}
          editable
        />,
      );
      const bad = screen.getByRole('textbox', { name: 'Level 1 sell' });
      expect(bad).toHaveAttribute('aria-invalid', 'true');
      expect(bad).toHaveAttribute('title', 'Enter a value');
      expect(screen.getByRole('textbox', { name: 'Level 2 sell' })).not.toHaveAttribute('aria-invalid');
    });
  });
});
