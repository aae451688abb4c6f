import type { ExternalToast } from 'sonner';

type Sonner = typeof import('sonner');

// sonner (toasts and their styles, about 8 KB compressed) loads on the first toast or with the signed-in shell,
// not with the public screens: nobody sees a toast before acting. A late Toaster still shows the toasts raised
// before it mounted (sonner replays active toasts to a new subscriber).
let loading: Promise<Sonner> | undefined;
let wanted = false;
const listeners = new Set<() => void>();

export function loadToaster(): Promise<Sonner> {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  loading ??= import('sonner').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** For useSyncExternalStore: whether the app should render its Toaster yet. */
export const toasterWanted = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: () => wanted,
};

type Message = string;

// The error toasts still on screen. A success means the thing that failed has since worked (or the user has
// moved on): an older error beside it would contradict it, so a success dismisses them.
const shownErrors = new Set<string | number>();

/**
 * sonner's `toast`, the one way screens raise a toast (Biome refuses `sonner` elsewhere): sonner stays out of
 * the first load whatever screen raises one.
 */
export const toast = {
  success(message: Message, data?: ExternalToast) {
    void loadToaster().then((sonner) => {
      for (const id of shownErrors) sonner.toast.dismiss(id);
      shownErrors.clear();
      sonner.toast.success(message, data);
    });
  },
  error(message: Message, data?: ExternalToast) {
    void loadToaster().then((sonner) => {
      const id = sonner.toast.error(message, {
        ...data,
        onDismiss: (t) => {
          shownErrors.delete(t.id);
          data?.onDismiss?.(t);
        },
        onAutoClose: (t) => {
          shownErrors.delete(t.id);
          data?.onAutoClose?.(t);
        },
      });
      shownErrors.add(id);
    });
  },
  info(message: Message, data?: ExternalToast) {
    void loadToaster().then((sonner) => sonner.toast.info(message, data));
  },
  warning(message: Message, data?: ExternalToast) {
    void loadToaster().then((sonner) => sonner.toast.warning(message, data));
  },
};
