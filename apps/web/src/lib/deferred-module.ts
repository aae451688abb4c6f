import { useEffect, useState } from 'react';

/**
 * A module that no first render needs (a dialog's or a menu's code): loaded once, on the first use or when the
 * browser is idle, whichever comes first. Components take it through `useDeferredModule`; `preload` starts the
 * load and forgets errors (the next `load` tries again).
 */
export function deferredModule<Module>(importer: () => Promise<Module>) {
  let loading: Promise<Module> | undefined;
  let loaded: Module | undefined;
  const load = () => {
    loading ??= importer().then(
      (module) => {
        loaded = module;
        return module;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  return {
    load,
    /** The module once it has loaded, else undefined. */
    get loaded() {
      return loaded;
    },
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

/**
 * The deferred module once `wanted` has turned true (and stays so), loading it then if nobody has: for a
 * component that draws nothing until it is first wanted. A failed load is tried again on the next render.
 */
export function useDeferredModule<Module>(
  module: ReturnType<typeof deferredModule<Module>>,
  wanted: boolean,
): Module | undefined {
  const [, setLoaded] = useState<Module>();
  useEffect(() => {
    if (!wanted || module.loaded) return;
    let live = true;
    module.load().then(
      (loaded) => {
        if (live) setLoaded(() => loaded);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [module, wanted]);
  return wanted ? module.loaded : undefined;
}
