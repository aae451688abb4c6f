import { useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';
export const THEME_KEY = 'theme';

const listeners = new Set<() => void>();

function readStoredTheme(): Theme {
  try {
    return localStorage.getItem(THEME_KEY) === 'light' ? 'light' : 'dark';
  } catch {
    return 'dark';
  }
}

function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
  for (const listener of listeners) listener();
}

/** The theme on <html> now (public/theme-init.js sets it before the first paint). */
export function getTheme(): Theme {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

export function setTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    // Private mode without storage: the theme still applies to this page.
  }
  applyTheme(theme);
}

/** Applies the stored theme; called once at start in case the early script did not run. */
export function initTheme(): void {
  applyTheme(readStoredTheme());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab changed the theme: follow it (docs/spec/01-core-screens.md: the stored theme is followed everywhere).
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_KEY) applyTheme(readStoredTheme());
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The current theme, re-rendering when it changes; charts and widgets follow it through this hook. */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, getTheme, () => 'dark');
}
