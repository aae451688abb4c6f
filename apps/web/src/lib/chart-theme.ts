import { type ChartOptions, ColorType, type DeepPartial } from 'lightweight-charts';
import type { Theme } from './theme';

export interface ChartColors {
  background: string;
  text: string;
  grid: string;
  border: string;
  up: string;
  down: string;
  upVolume: string;
  downVolume: string;
  crosshair: string;
  /** Accent and warning tones, for lines drawn over the candles (a bot's levels). */
  primary: string;
  warn: string;
}

/** '#22c55e' + 0.4 → 'rgba(34, 197, 94, 0.4)'; other colour forms are returned as they are. */
export function withAlpha(color: string, alpha: number): string {
  const hex = color.trim().match(/^#([0-9a-f]{6})$/i)?.[1];
  if (!hex) return color;
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

const FALLBACK: Record<Theme, Record<string, string>> = {
  light: {
    surface: '#ffffff',
    muted: '#5b6b82',
    line: '#dde3ec',
    up: '#0f9d58',
    down: '#d93025',
    primary: '#2563eb',
    warn: '#92400e',
  },
  dark: {
    surface: '#101a2b',
    muted: '#8b9ab3',
    line: '#22314b',
    up: '#22c55e',
    down: '#f6465d',
    primary: '#3b82f6',
    warn: '#f5a524',
  },
};

/**
 * The chart's colours from the app's design tokens (index.css), read after the theme class changed, so
 * the canvas matches the cards around it in both themes.
 */
export function chartColors(theme: Theme): ChartColors {
  const style = typeof window === 'undefined' ? null : getComputedStyle(document.documentElement);
  const token = (name: string) => style?.getPropertyValue(`--${name}`).trim() || FALLBACK[theme][name] || '';
  const up = token('up');
  const down = token('down');
  return {
    background: token('surface'),
    text: token('muted'),
    grid: withAlpha(token('line'), theme === 'dark' ? 0.55 : 0.7),
    border: token('line'),
    up,
    down,
    upVolume: withAlpha(up, 0.35),
    downVolume: withAlpha(down, 0.35),
    crosshair: withAlpha(token('muted'), 0.6),
    primary: token('primary'),
    warn: token('warn'),
  };
}

/**
 * The theme's part of a chart's options: background, text, grid, scale borders and crosshair in `colors`, in the
 * page's font. Applied over a chart's own options (applyOptions merges them), on creation and on a theme change.
 */
export function chartThemeOptions(colors: ChartColors): DeepPartial<ChartOptions> {
  return {
    layout: {
      background: { type: ColorType.Solid, color: colors.background },
      textColor: colors.text,
      fontFamily: getComputedStyle(document.body).fontFamily,
    },
    grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
    rightPriceScale: { borderColor: colors.border },
    timeScale: { borderColor: colors.border },
    crosshair: { vertLine: { color: colors.crosshair }, horzLine: { color: colors.crosshair } },
  };
}
