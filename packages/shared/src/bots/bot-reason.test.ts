import { describe, expect, it } from 'vitest';
import { botReasonOf, stopReasonText } from './bot-reason';

describe('why a bot is not trading', () => {
  it('names the stop reason of a stopped bot, with no action', () => {
    expect(botReasonOf({ status: 'Stopped', haltReason: null, stopReason: 'stoploss' })).toEqual({
      text: 'Stopped by its stoploss price',
      action: null,
    });
    expect(botReasonOf({ status: 'Stopping', stopReason: 'profit_book' })?.text).toBe(
      'Stopped at its profit-book target',
    );
  });

  it('offers Resume for a pause the runtime made', () => {
    expect(botReasonOf({ status: 'Pause', haltReason: 'Orders keep failing.', stopReason: null })).toEqual({
      text: 'Paused by the system: Orders keep failing.',
      action: 'resume',
    });
  });

  it('explains a pause at the pause price and offers to edit the limits', () => {
    expect(botReasonOf({ status: 'Pause', pausePrice: 120, restartPrice: 100 })).toEqual({
      text: 'Paused at its pause price 120: everything was sold. It restarts when the price falls to its restart price 100.',
      action: 'edit_limits',
    });
    expect(botReasonOf({ status: 'Pause', pausePrice: 120, restartPrice: null })?.text).toContain(
      'It has no restart price: resume it, or set one to let it trade again.',
    );
  });

  it('has nothing to say about a live bot', () => {
    expect(botReasonOf({ status: 'Live', haltReason: null, stopReason: null })).toBeNull();
  });

  it('shows an unknown stop reason as recorded', () => {
    expect(stopReasonText('margin_call')).toBe('Stopped: margin_call');
  });
});
