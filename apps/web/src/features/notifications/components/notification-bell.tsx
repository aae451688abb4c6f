import { BellIcon } from '../../../components/ui/icons';
import { deferredModule, useStandIn } from '../../../lib/deferred-module';
import { useNotifications } from '../api/notifications';

export const bellLabel = (unread: number) =>
  unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
export const bellClasses =
  'relative flex size-9 items-center justify-center rounded-lg text-muted transition-colors hover:bg-surface-2 hover:text-fg';

/** The bell with its unread count. */
export function BellFace({ unread }: { unread: number }) {
  return (
    <>
      <BellIcon className="size-5" />
      {unread > 0 ? (
        <span
          aria-hidden="true"
          className="absolute -top-0.5 -right-0.5 flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-down px-1 text-[0.65rem] leading-none font-bold text-white"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </>
  );
}

/** The panel's code (Radix Popover with its positioning and dismissal, about 15 KB compressed): not in the first render. */
const popoverModule = deferredModule(() => import('./notification-popover'));

/**
 * The header's bell: the unread count, and a panel of recent events (notification-popover.tsx). The page shows a
 * stand-in bell that looks and is named the same; pressing it draws the panel's own bell in its place, open (its
 * code loads when the browser is idle, or then).
 */
export function NotificationBell() {
  const { wanted, loaded, triggerProps } = useStandIn(popoverModule);
  const unread = useNotifications().data?.unread ?? 0;
  const Popover = loaded?.default;
  if (wanted && Popover) {
    return <Popover />;
  }
  return (
    <button
      type="button"
      aria-label={bellLabel(unread)}
      title={bellLabel(unread)}
      aria-haspopup="dialog"
      aria-expanded={false}
      className={bellClasses}
      {...triggerProps}
    >
      <BellFace unread={unread} />
    </button>
  );
}
