import { contactMessages } from '@gridbot/shared';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import ContactRoute from '../../../app/routes/contact';
import ThankYouRoute from '../../../app/routes/thank-you';
import { json, mockApi } from '../../../testing/mock-api';
import { currentUrl, renderFeature } from '../../../testing/render-feature';

describe('contact form', () => {
  it('shows the spec messages for missing fields', async () => {
    mockApi();
    const { user } = renderFeature('/contact', <ContactRoute />);
    await user.click(await screen.findByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText(contactMessages.nameRequired)).toBeInTheDocument();
    expect(screen.getByText(contactMessages.contactNoRequired)).toBeInTheDocument();
    expect(screen.getByText(contactMessages.emailRequired)).toBeInTheDocument();
  });

  it('sends the message, toasts and opens the thank-you page', async () => {
    const api = mockApi({ 'POST /api/contact': () => json({ success: true, message: 'ok' }) });
    const { user } = renderFeature('/contact', <ContactRoute />, {
      routes: [{ path: '/thankyou', element: <ThankYouRoute /> }],
    });
    await user.type(await screen.findByLabelText('Name'), 'Alice');
    await user.type(screen.getByLabelText('Contact No'), '4915112345678');
    await user.type(screen.getByLabelText('Email'), 'alice@example.com');
    await user.type(screen.getByLabelText('Message'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    expect(await screen.findByText('Thank You for Your Sign Up Request!')).toBeInTheDocument();
    expect(
      screen.getByText('Our team will contact you soon with amazing opportunities.'),
    ).toBeInTheDocument();
    expect(await screen.findByText(contactMessages.sent)).toBeInTheDocument();
    expect(currentUrl()).toBe('/thankyou');
    expect(api.callsTo('POST', '/api/contact')[0]?.body).toEqual({
      name: 'Alice',
      contactNo: '4915112345678',
      email: 'alice@example.com',
      text: 'Hello',
    });
  });

  it('toasts the spec failure text', async () => {
    mockApi({ 'POST /api/contact': () => json({ message: 'nope' }, 500) });
    const { user } = renderFeature('/contact', <ContactRoute />);
    await user.type(await screen.findByLabelText('Name'), 'Alice');
    await user.type(screen.getByLabelText('Contact No'), '4915112345678');
    await user.type(screen.getByLabelText('Email'), 'alice@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText(contactMessages.failed)).toBeInTheDocument();
  });
});
