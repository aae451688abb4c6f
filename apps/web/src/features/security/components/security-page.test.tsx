import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import SecurityRoute from '../../../app/routes/security';
import { json, mockApi } from '../../../testing/mock-api';
import { renderFeature } from '../../../testing/render-feature';

const sessions = [
  {
    id: 'a1',
    device: 'Chrome 131 on macOS',
    ip: '198.51.100.7',
    createdAt: '2026-11-20T10:00:00.000Z',
    lastSeenAt: '2026-11-26T09:00:00.000Z',
    current: true,
  },
  {
    id: 'b2',
    device: 'Safari 17 on iOS',
    ip: '203.0.113.9',
    createdAt: '2026-11-21T10:00:00.000Z',
    lastSeenAt: '2026-11-25T09:00:00.000Z',
    current: false,
  },
];

function securityApi(extra = {}) {
  return mockApi({
    'GET /api/security/sessions': () => json({ sessions }),
    'GET /api/security/2fa': () => json({ enabled: false, recoveryCodesLeft: 0, required: false }),
    'GET /api/security/log': () =>
      json({
        items: [
          {
            id: '9',
            type: 'login_failed',
            label: 'Failed login',
            ip: '192.0.2.4',
            detail: 'Firefox 133 on Linux',
            createdAt: '2026-11-26T08:00:00.000Z',
          },
        ],
        page: 1,
        pageSize: 20,
        total: 1,
      }),
    ...extra,
  });
}

describe('Security page', () => {
  it('lists sessions and logs another one out', async () => {
    const api = securityApi({
      'POST /api/security/sessions/b2/logout': () => json({ success: true, message: 'ok' }),
    });
    const { user } = renderFeature('/security', <SecurityRoute />, { signedIn: true });
    const table = await screen.findByRole('table', { name: 'Active sessions' });
    expect(await within(table).findByText('This device')).toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: 'Log out Safari 17 on iOS (203.0.113.9)' }));
    expect(api.callsTo('POST', '/api/security/sessions/b2/logout')).toHaveLength(1);
    expect(await screen.findByText('Failed login')).toBeInTheDocument();
  });

  it('sets two-factor sign-in up with the first code and shows the recovery codes once', async () => {
    const codes = Array.from({ length: 10 }, (_, i) => `AAAA${i}-BBBB${i}`);
    const api = securityApi({
      'POST /api/security/2fa/setup': () =>
        json({
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          otpauthUrl: 'otpauth://totp/Gridbot:a?secret=JBSWY3DPEHPK3PXP',
        }),
      'POST /api/security/2fa/enable': () => json({ success: true, message: 'on', recoveryCodes: codes }),
    });
    const { user } = renderFeature('/security', <SecurityRoute />, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }));
    expect(await screen.findByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    expect(
      await screen.findByRole('img', { name: 'QR code for your authenticator app' }),
    ).toBeInTheDocument();
    await user.type(screen.getByLabelText('Code from the app'), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    const list = await screen.findByTestId('recovery-codes');
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(api.callsTo('POST', '/api/security/2fa/enable')[0]?.body).toEqual({ code: '123456' });
  });
});
