import { type RefObject, useEffect, useState } from 'react';

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

/**
 * Runs `callback` once the first screen has settled: after the window's load event, `settleMs` more (the page's
 * data arrive and draw then, the busiest seconds of a phone's CPU), and then an idle moment (at the latest
 * `timeoutMs` later). Returns the cancel. Code wanted sooner, on a press or a hover, loads itself then.
 */
export function whenIdle(callback: () => void, { settleMs = 4000, timeoutMs = 3000 } = {}): () => void {
  let cancelIdle = () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const afterLoad = () => {
    timer = setTimeout(() => {
      if (typeof requestIdleCallback !== 'function') return callback();
      const idle = requestIdleCallback(callback, { timeout: timeoutMs });
      cancelIdle = () => cancelIdleCallback(idle);
    }, settleMs);
  };
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
  return () => {
    window.removeEventListener('load', afterLoad);
    clearTimeout(timer);
    cancelIdle();
  };
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

/** What a stand-in's press or the idle load asked of the real component. */
export type StandInWant = null | { open: false; hadFocus: boolean } | { open: true; byKeyboard: boolean };

/**
 * For a control drawn first as a stand-in (a button of the same look and name) whose real component (a menu,
 * a popover) is deferred code: the real one replaces the stand-in when the browser is idle (`whenIdle`; focus
 * handed over if the stand-in had it), or at once, open, when the stand-in is pressed before then.
 */
export function useStandIn<Module>(
  module: ReturnType<typeof deferredModule<Module>>,
  standIn: RefObject<HTMLElement | null>,
) {
  const [wanted, setWanted] = useState<StandInWant>(null);
  const loaded = useDeferredModule(module, wanted !== null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per mount; the module and the ref are stable
  useEffect(
    () =>
      whenIdle(() =>
        module.load().then(
          () =>
            setWanted(
              (current) => current ?? { open: false, hadFocus: document.activeElement === standIn.current },
            ),
          () => undefined,
        ),
      ),
    [],
  );
  return {
    wanted,
    loaded: wanted ? loaded : undefined,
    open: (byKeyboard: boolean) => setWanted({ open: true, byKeyboard }),
  };
}
