import { describe, expect, it } from 'vitest';
import { chartColors, chartThemeOptions } from './chart-theme';

describe('chartThemeOptions', () => {
  it("paints a chart's background, text, grid, borders and crosshair in the theme's colours", () => {
    const colors = chartColors('dark');
    const options = chartThemeOptions(colors);
    expect(options.layout?.background).toEqual({ type: 'solid', color: colors.background });
    expect(options.layout?.textColor).toBe(colors.text);
    expect(options.grid?.vertLines?.color).toBe(colors.grid);
    expect(options.grid?.horzLines?.color).toBe(colors.grid);
    expect(options.rightPriceScale?.borderColor).toBe(colors.border);
    expect(options.timeScale?.borderColor).toBe(colors.border);
    expect(options.crosshair?.vertLine?.color).toBe(colors.crosshair);
    // Only colours and the font: each chart keeps its own behaviour (scrolling, which lines show).
    expect(options.grid?.vertLines).not.toHaveProperty('visible');
    expect(options).not.toHaveProperty('handleScroll');
  });
});
