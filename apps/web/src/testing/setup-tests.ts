import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import HTMLElementConfig from 'happy-dom/lib/config/HTMLElementConfig.js';
import { afterAll, afterEach, vi } from 'vitest';
import { toasterWanted } from '../lib/toast';

// happy-dom 21 does not know the `<search>` element of the HTML Standard (§4.4.15, "the search element": an
// HTMLElement holding flow content, which the filters of History and Copy BOTs use), so React warned in every
// render that the tag is unrecognized in this browser. It is given the entry of its sibling `<section>`.
HTMLElementConfig.search ??= { ...HTMLElementConfig.section! };

// Route screens load on demand; the first import of one can take a while on a busy machine.
configure({ asyncUtilTimeout: 10_000 });
// Whole-app tests (router, lazy screens, user-event) need more than 5 s when the machine is busy.
vi.setConfig({ testTimeout: 30_000 });
// Where the test DOM has no matchMedia: sonner and media-aware components ask for it.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

// The test DOM has no canvas: the bar charts (lightweight-charts) draw nothing here; their box and label remain.
vi.mock('../components/ui/bar-chart-canvas', () => ({ default: () => null }));

// Where the test DOM has no ResizeObserver: Radix UI's menus measure their trigger and content with it.
if (!window.ResizeObserver) {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// The test DOM does not scroll; the router's scroll restoration calls it on every navigation.
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.unstubAllEnvs();
  window.history.replaceState(null, '', '/');
});

// sonner takes a dismissed toast off the Toaster's state on a timer of its own (200 ms); a file whose last test
// left one must keep its DOM that long, or the timer's state update meets a torn-down window.
afterAll(async () => {
  if (toasterWanted.get()) await new Promise((resolve) => setTimeout(resolve, 250));
});
