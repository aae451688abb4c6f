import { type NotificationList, notificationPathOf } from '@gridbot/shared';
import * as Popover from '@radix-ui/react-popover';
import { clsx } from 'clsx';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/format';
import { useMarkRead, useNotifications } from '../api/notifications';
import { BellFace, bellClasses, bellLabel } from './notification-bell';

/**
 * The bell's panel of recent events, each linking to its bot or page, on a Radix UI Popover (a non-modal
 * dialog): opening it moves focus into it, Escape or a click outside closes it, and focus returns to the bell.
 */
export default function NotificationPopover() {
  // It replaces the stand-in bell when that is pressed (notification-bell.tsx): open from the start.
  const [open, setOpen] = useState(true);
  const list = useNotifications();
  const markRead = useMarkRead();
  const unread = list.data?.unread ?? 0;

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger aria-label={bellLabel(unread)} title={bellLabel(unread)} className={bellClasses}>
        <BellFace unread={unread} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          aria-label="Notifications"
          align="end"
          sideOffset={8}
          collisionPadding={8}
          className="z-50 flex max-h-[min(70dvh,var(--radix-popover-content-available-height))] w-[calc(100vw-1rem)] flex-col overflow-hidden rounded-xl border border-line bg-surface shadow-card sm:w-96"
        >
          <div className="flex items-center justify-between gap-2 border-b border-line px-4 py-3">
            <h2 className="text-sm font-semibold text-fg">Notifications</h2>
            <div className="flex items-center gap-3 text-xs font-semibold">
              {unread > 0 ? (
                <button
                  type="button"
                  className="text-primary hover:underline"
                  onClick={() => markRead.mutate(undefined)}
                >
                  Mark all read
                </button>
              ) : null}
              <Link
                to="/notifications"
                className="text-primary hover:underline"
                onClick={() => setOpen(false)}
              >
                Settings
              </Link>
            </div>
          </div>
          <NotificationItems
            list={list}
            onOpenItem={(item) => {
              setOpen(false);
              if (!item.read) markRead.mutate([item.id]);
            }}
          />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/**
 * The panel's list, a component of its own so that it renders only while the panel is open: the bell renders on
 * every signed-in page, and elements built in its render would be built (and their times written) even closed.
 */
function NotificationItems({
  list,
  onOpenItem,
}: {
  list: ReturnType<typeof useNotifications>;
  onOpenItem: (item: NotificationList['items'][number]) => void;
}) {
  return (
    <ul className="min-h-0 flex-1 overflow-y-auto">
      {list.data?.items.length ? (
        list.data.items.map((item) => (
          <li key={item.id} className="border-b border-line last:border-b-0">
            <Link
              to={notificationPathOf(item)}
              onClick={() => onOpenItem(item)}
              className={clsx('block px-4 py-3 hover:bg-surface-2', !item.read && 'bg-primary/5')}
            >
              <div className="flex items-start justify-between gap-3">
                <p className="text-sm font-semibold text-fg">
                  {item.read ? null : <span className="sr-only">Unread: </span>}
                  {item.title}
                </p>
                {item.read ? null : (
                  <span aria-hidden="true" className="mt-1.5 size-2 shrink-0 rounded-full bg-primary-solid" />
                )}
              </div>
              <p className="mt-0.5 text-sm text-muted">{item.body}</p>
              <p className="mt-1 text-xs text-muted">
                <time dateTime={item.createdAt}>{formatDate(item.createdAt)}</time>
              </p>
            </Link>
          </li>
        ))
      ) : (
        <li className="px-4 py-8 text-center text-sm text-muted">
          {list.isPending ? 'Loading…' : 'Nothing yet. Stops, pauses, deposits and withdrawals show up here.'}
        </li>
      )}
    </ul>
  );
}
