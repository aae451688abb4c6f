import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import DashboardRoute from '../../../app/routes/dashboard';
import { json, mockApi } from '../../../testing/mock-api';
import { renderFeature } from '../../../testing/render-feature';

describe('disclaimer on the dashboard', () => {
  it('blocks the dashboard until Agree, then records the agreement', async () => {
    const api = mockApi({
      'GET /api/disclaimeragreementcheck': () => json({ agreed: false }),
      'POST /api/disclaimer': () => json({ success: true, agreed: true }),
    });
    const { user } = renderFeature('/dashboard', <DashboardRoute />, { signedIn: true });
    const dialog = await screen.findByRole('dialog', { name: 'Disclaimer' });
    for (const heading of ['P&L Disclaimer', 'Risk Acknowledgment', 'Due Diligence Requirement']) {
      expect(screen.getByRole('heading', { name: heading })).toBeInTheDocument();
    }
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(dialog).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Agree' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Disclaimer' })).not.toBeInTheDocument());
    expect(api.callsTo('POST', '/api/disclaimer')[0]?.body).toEqual({ disclaimerAgree: true });
  });

  it('shows the dialog when the agreement check fails', async () => {
    mockApi({ 'GET /api/disclaimeragreementcheck': () => json({ message: 'down' }, 503) });
    renderFeature('/dashboard', <DashboardRoute />, { signedIn: true });
    expect(await screen.findByRole('dialog', { name: 'Disclaimer' })).toBeInTheDocument();
  });

  it('stays closed for a user who agreed', async () => {
    const api = mockApi();
    const { queryClient } = renderFeature('/dashboard', <DashboardRoute />, { signedIn: true });
    await waitFor(() => expect(api.callsTo('GET', '/api/disclaimeragreementcheck')).toHaveLength(1));
    await waitFor(() => expect(queryClient.getQueryData(['disclaimer'])).toEqual({ agreed: true }));
    expect(screen.queryByRole('dialog', { name: 'Disclaimer' })).not.toBeInTheDocument();
  });
});
