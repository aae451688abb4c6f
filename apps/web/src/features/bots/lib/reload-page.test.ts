import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const toast = vi.hoisted(() => ({ success: vi.fn() }));
vi.mock('../../../lib/toast', () => ({ toast }));

const { reloadPageSoon, showSuccessFromBeforeReload } = await import('./reload-page');

describe('a save that reloads the page', () => {
  let reload: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.useFakeTimers();
    reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload } as Location);
    sessionStorage.clear();
    toast.success.mockClear();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('reloads a moment later and shows its success once more, once, when the page is back', () => {
    reloadPageSoon('Overbuy Grid Protection updated successfully');
    vi.advanceTimersByTime(899);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reload).toHaveBeenCalledOnce();

    showSuccessFromBeforeReload();
    showSuccessFromBeforeReload();
    expect(toast.success.mock.calls).toEqual([['Overbuy Grid Protection updated successfully']]);
  });

  it('shows nothing on a page that was not reloaded by a save', () => {
    showSuccessFromBeforeReload();
    expect(toast.success).not.toHaveBeenCalled();
  });
});
