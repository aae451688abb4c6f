import { useEffect, useState } from 'react';
import { pageTimers } from './coalesced-timers';

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
  let timer: number | undefined;
  const afterLoad = () => {
    // On the page's shared timer: every screen asks for a few of these in the effects of its first commit.
    timer = pageTimers.setTimeout(() => {
      if (typeof requestIdleCallback !== 'function') return callback();
      const idle = requestIdleCallback(callback, { timeout: timeoutMs });
      cancelIdle = () => cancelIdleCallback(idle);
    }, settleMs);
  };
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
  return () => {
    window.removeEventListener('load', afterLoad);
    pageTimers.clearTimeout(timer);
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

/** What a stand-in's press asked of the real component: opened by the keyboard or not. */
type StandInWant = null | { byKeyboard: boolean };

/**
 * For a control drawn first as a stand-in (a button of the same look and name) whose real component (a menu,
 * a popover) is deferred code: the code loads when the browser is idle (`whenIdle`), and the real component
 * replaces the stand-in, open, when the stand-in is pressed. It is not drawn before: drawing a Radix menu or
 * popover is a task of its own (20 ms on a desktop core, four times that on a phone) that nobody had asked for.
 */
export function useStandIn<Module>(module: ReturnType<typeof deferredModule<Module>>) {
  const [wanted, setWanted] = useState<StandInWant>(null);
  const loaded = useDeferredModule(module, wanted !== null);
  useEffect(() => whenIdle(module.preload), [module]);
  const open = (byKeyboard: boolean) => setWanted({ byKeyboard });
  return {
    wanted,
    loaded: wanted ? loaded : undefined,
    open,
    /** The stand-in's handlers: its code loads as soon as a pointer or the focus reaches it; a click opens. */
    triggerProps: { onPointerEnter: module.preload, onFocus: module.preload, onClick: () => open(false) },
  };
}
