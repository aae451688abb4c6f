import { vi } from 'vitest';

/**
 * The test DOM lays nothing out: until the test ends, every box a ResizeObserver watches is reported `px` wide,
 * after the observe call as a browser reports it after layout. Size-aware components (`useNarrowBox`) see it.
 */
export function boxesLaidOutAt(px: number): void {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      private observed = true;
      constructor(private readonly callback: ResizeObserverCallback) {}
      observe(target: Element) {
        queueMicrotask(() => {
          if (!this.observed) return;
          const entry = { target, contentRect: { width: px } } as unknown as ResizeObserverEntry;
          this.callback([entry], this as unknown as ResizeObserver);
        });
      }
      unobserve() {}
      disconnect() {
        this.observed = false;
      }
    },
  );
}
