import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Tabs } from './tabs';

const ITEMS = [
  { value: 'multigrid', label: 'Multigrid' },
  { value: 'scalping', label: 'Scalping' },
  { value: 'cycle', label: 'Cycle' },
] as const;

function Screen({ withPanel = true }: { withPanel?: boolean }) {
  const [value, setValue] = useState<(typeof ITEMS)[number]['value']>('multigrid');
  return (
    <Tabs label="Bot type" items={ITEMS} value={value} onChange={setValue}>
      {withPanel ? <p>{value} bots</p> : undefined}
    </Tabs>
  );
}

describe('Tabs', () => {
  it('shows the selected tab panel, named by its tab', async () => {
    const user = userEvent.setup();
    render(<Screen />);
    expect(screen.getByRole('tablist', { name: 'Bot type' })).toBeInTheDocument();
    expect(screen.getByRole('tabpanel', { name: 'Multigrid' })).toHaveTextContent('multigrid bots');
    await user.click(screen.getByRole('tab', { name: 'Cycle' }));
    expect(screen.getByRole('tab', { name: 'Cycle' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Cycle' })).toHaveTextContent('cycle bots');
  });

  it('is one tab stop; arrows, Home and End move focus and select, wrapping at the ends', async () => {
    const user = userEvent.setup();
    render(<Screen />);
    await user.tab();
    const tab = (name: string) => screen.getByRole('tab', { name });
    expect(tab('Multigrid')).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(tab('Scalping')).toHaveFocus();
    expect(tab('Scalping')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('scalping bots');
    await user.keyboard('{End}');
    expect(tab('Cycle')).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(tab('Multigrid')).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(tab('Cycle')).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Home}');
    expect(tab('Multigrid')).toHaveAttribute('aria-selected', 'true');
    // Tab leaves the list for the panel, not the next tab.
    await user.tab();
    expect(screen.getByRole('tabpanel')).toHaveFocus();
  });

  it('as a filter without a panel, points at no panel', () => {
    render(<Screen withPanel={false} />);
    expect(screen.queryByRole('tabpanel')).not.toBeInTheDocument();
    for (const tab of screen.getAllByRole('tab')) expect(tab).not.toHaveAttribute('aria-controls');
  });
});
