import { vi } from 'vitest';

/**
 * The test DOM lays nothing out: until the test ends, every box a ResizeObserver watches is reported `px` wide.
 * Size-aware components (`useNarrowBox`) see it. As the Resize Observer specification (W3C, drafts.csswg.org/
 * resize-observer) has it:
 * - §3.1 `observe()`: "Observation will fire when observation starts if Element is being rendered, and Element's
 *   size is not 0,0" — one report per observed box without any resize;
 * - §3.4.1 and the HTML event loop's "update the rendering": reports are delivered after layout, never during
 *   the `observe()` call — here in a microtask after it;
 * - §3.3 `ResizeObserverEntry.contentRect`: the content box (the default `box` option), its `width` in px;
 * - §3.1 `disconnect()`: no report after it.
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
