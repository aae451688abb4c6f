import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BarChart } from './bar-chart';

vi.mock('./bar-chart-canvas', () => ({ default: () => <canvas data-testid="bars" /> }));

/** An IntersectionObserver the test drives: `enter()` reports every observed element as intersecting. */
function stubIntersectionObserver() {
  const observers: { callback: IntersectionObserverCallback; elements: Element[] }[] = [];
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      private entry: (typeof observers)[number];
      constructor(callback: IntersectionObserverCallback) {
        this.entry = { callback, elements: [] };
        observers.push(this.entry);
      }
      observe(element: Element) {
        this.entry.elements.push(element);
      }
      disconnect() {
        this.entry.elements = [];
      }
    },
  );
  return {
    enter() {
      for (const { callback, elements } of observers) {
        const entries = elements.map(
          (target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry,
        );
        if (entries.length) callback(entries, {} as IntersectionObserver);
      }
    },
  };
}

afterEach(() => vi.unstubAllGlobals());

const props = { bars: [['2026-03-01', 5]] as const, height: 240, label: 'Daily profit', formatValue: String };

describe('bar chart', () => {
  it('keeps its room and label, and loads the chart only once its box nears the viewport', async () => {
    const viewport = stubIntersectionObserver();
    render(<BarChart {...props} />);
    const box = screen.getByRole('img', { name: 'Daily profit' });
    expect(box).toHaveStyle({ height: '240px' });
    expect(screen.queryByTestId('bars')).not.toBeInTheDocument();
    act(() => viewport.enter());
    expect(await screen.findByTestId('bars')).toBeInTheDocument();
  });

  it('draws at once where the browser cannot tell what is in view', async () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<BarChart {...props} />);
    expect(await screen.findByTestId('bars')).toBeInTheDocument();
  });
});
