/**
 * A module that no first render needs (a dialog's or a menu's code): loaded once, on the first use or when the
 * browser is idle, whichever comes first. `load` is for React's `lazy`; `preload` starts it and forgets errors
 * (the next `load` tries again).
 */
export function deferredModule<Module>(importer: () => Promise<Module>) {
  let loading: Promise<Module> | undefined;
  const load = () => {
    loading ??= importer().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  return {
    load,
    preload(): void {
      load().catch(() => {
        // Whoever needs the module asks again.
      });
    },
  };
}

/** Runs `callback` when the browser is idle (at the latest after `timeoutMs`); returns the cancel. */
export function whenIdle(callback: () => void, timeoutMs = 3000): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const timer = setTimeout(callback, 1000);
    return () => clearTimeout(timer);
  }
  const idle = requestIdleCallback(callback, { timeout: timeoutMs });
  return () => cancelIdleCallback(idle);
}
