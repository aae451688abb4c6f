import { type NotificationItem, notificationPathOf } from '@gridbot/shared';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { AlertIcon } from '../../../components/ui/icons';
import { formatDate } from '../../../lib/format';
import { useMarkRead, useNotifications } from '../api/notifications';

/** Stops the user did not make (stoploss, take-profit, profit book, liquidation) that they have not yet read. */
export function unreadBotStops(items: readonly NotificationItem[] | undefined): NotificationItem[] {
  return (items ?? []).filter((item) => item.type === 'bot_stopped' && !item.read);
}

/**
 * The dashboard's word on bots that stopped by themselves. A stopped bot has no live card, so without this its
 * reason would reach the dashboard only through the bell. Each stays until dismissed (marked read) or opened;
 * it reads the bell's own list, so it costs no request of its own.
 */
export function BotStopsNotice() {
  const list = useNotifications();
  const markRead = useMarkRead();
  const stops = unreadBotStops(list.data?.items);
  if (stops.length === 0) return null;
  return (
    <section
      aria-labelledby="bot-stops-title"
      className="space-y-2 rounded-xl border border-warn/40 bg-warn/10 p-4 text-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="bot-stops-title" className="flex items-center gap-2 font-semibold text-fg">
          <AlertIcon className="size-5 shrink-0 text-warn" />
          {stops.length === 1 ? 'A bot stopped by itself' : `${stops.length} bots stopped by themselves`}
        </h2>
        {stops.length > 1 ? (
          <button
            type="button"
            className={buttonClasses('ghost', 'sm')}
            onClick={() => markRead.mutate(stops.map((item) => item.id))}
          >
            Dismiss all
          </button>
        ) : null}
      </div>
      <ul className="divide-y divide-warn/20">
        {stops.map((item) => (
          <li key={item.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
            <p className="min-w-0 flex-1 basis-64 text-fg">
              {item.body}{' '}
              <time dateTime={item.createdAt} className="text-xs text-muted">
                {formatDate(item.createdAt)}
              </time>
            </p>
            <Link
              to={notificationPathOf(item)}
              className={buttonClasses('outline', 'sm')}
              onClick={() => markRead.mutate([item.id])}
            >
              View bot
            </Link>
            <button
              type="button"
              className={buttonClasses('ghost', 'sm')}
              aria-label={`Dismiss: ${item.body}`}
              onClick={() => markRead.mutate([item.id])}
            >
              Dismiss
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
