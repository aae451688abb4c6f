import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferredModule, useStandIn, whenIdle } from './deferred-module';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('whenIdle', () => {
  it('waits for the page to settle after its load, then for an idle moment', () => {
    vi.useFakeTimers();
    const idle = vi.fn((callback: () => void) => setTimeout(callback, 50));
    vi.stubGlobal('requestIdleCallback', idle);
    vi.stubGlobal('cancelIdleCallback', (id: number) => clearTimeout(id));
    const callback = vi.fn();
    whenIdle(callback, { settleMs: 4000 });
    vi.advanceTimersByTime(3999);
    expect(idle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(idle).toHaveBeenCalledTimes(1);
    expect(callback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(50);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it('does nothing once cancelled', () => {
    vi.useFakeTimers();
    const callback = vi.fn();
    const cancel = whenIdle(callback, { settleMs: 100 });
    cancel();
    vi.advanceTimersByTime(10_000);
    expect(callback).not.toHaveBeenCalled();
  });
});

describe('deferredModule', () => {
  it('loads once however often it is asked, and tries again after a failure', async () => {
    const importer = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({ value: 1 });
    const module = deferredModule(importer);
    await expect(module.load()).rejects.toThrow('offline');
    expect(module.loaded).toBeUndefined();
    await Promise.all([module.load(), module.load()]);
    expect(module.loaded).toEqual({ value: 1 });
    expect(importer).toHaveBeenCalledTimes(2);
  });
});

describe('useStandIn', () => {
  it('loads the code when the browser is idle, and gives the real component only once the stand-in is pressed', async () => {
    vi.useFakeTimers();
    const importer = vi.fn().mockResolvedValue({ value: 1 });
    const module = deferredModule(importer);
    const { result } = renderHook(() => useStandIn(module));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(importer).toHaveBeenCalledTimes(1);
    expect(result.current.wanted).toBeNull();
    expect(result.current.loaded).toBeUndefined();

    act(() => result.current.open(true));
    expect(result.current.wanted).toEqual({ byKeyboard: true });
    expect(result.current.loaded).toEqual({ value: 1 });
  });
  it('gives the stand-in handlers that load the code on hover or focus and open on a click', async () => {
    const importer = vi.fn().mockResolvedValue({ value: 2 });
    const module = deferredModule(importer);
    const { result } = renderHook(() => useStandIn(module));
    await act(async () => {
      result.current.triggerProps.onFocus();
    });
    expect(importer).toHaveBeenCalledTimes(1);
    await act(async () => {
      result.current.triggerProps.onPointerEnter();
      result.current.triggerProps.onClick();
    });
    expect(importer).toHaveBeenCalledTimes(1);
    expect(result.current.wanted).toEqual({ byKeyboard: false });
    expect(result.current.loaded).toEqual({ value: 2 });
  });
});
