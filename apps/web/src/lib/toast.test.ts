import { beforeEach, describe, expect, it, vi } from 'vitest';

const sonner = vi.hoisted(() => {
  let next = 0;
  return {
    toast: {
      success: vi.fn(() => ++next),
      error: vi.fn((_message: string, data?: { id?: string | number }) => data?.id ?? ++next),
      info: vi.fn(),
      warning: vi.fn(),
      dismiss: vi.fn(),
    },
  };
});
vi.mock('sonner', () => sonner);

const { loadToaster, toast } = await import('./toast');
const settled = () => loadToaster().then(() => undefined);

describe('toasts', () => {
  beforeEach(() => {
    for (const fn of Object.values(sonner.toast)) fn.mockClear();
  });

  it('dismisses the error toasts still shown when a success follows', async () => {
    toast.error('Error updating SLTP values');
    toast.error('Could not load the history.', { id: 'history' });
    await settled();
    toast.success('SLTP values updated successfully');
    await settled();
    const dismissed = sonner.toast.dismiss.mock.calls.map(([id]) => id);
    expect(dismissed).toHaveLength(2);
    expect(dismissed).toContain('history');
    expect(sonner.toast.success).toHaveBeenCalledWith('SLTP values updated successfully', undefined);
  });

  it('leaves alone an error toast that has already closed', async () => {
    toast.error('Error stopping bot');
    await settled();
    const options = sonner.toast.error.mock.calls[0]?.[1] as { onAutoClose: (t: { id: number }) => void };
    options.onAutoClose({ id: sonner.toast.error.mock.results[0]?.value as number });
    toast.success('Bot stopped successfully');
    await settled();
    expect(sonner.toast.dismiss).not.toHaveBeenCalled();
  });
});
