import { type NotificationEventType, type NotificationItem, notificationEventLabels } from '@gridbot/shared';

export interface EventRow {
  id: number;
  userId: string;
  type: string;
  botId: string | null;
  payload: Record<string, unknown>;
  createdAt: Date;
  readAt: Date | null;
}

const stopReasons: Record<string, string> = {
  stoploss: 'its stoploss price was reached',
  take_profit: 'its take-profit price was reached',
  profit_book: 'its profit-book target was reached',
  liquidated: 'its futures position was liquidated',
};

const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** What a bot event is about: "BTCUSDT Spot bot", "ETHUSDT cycle" or "SOLUSDT Spot grid" (a range grid). */
function subject(payload: Record<string, unknown>): string {
  const kind =
    payload.botType === 'cycle'
      ? 'cycle'
      : `${str(payload.category)} ${payload.botType === 'range' ? 'grid' : 'bot'}`;
  return `${str(payload.symbol)} ${kind}`.trim();
}

/** The one-line body of an event, the same words on every channel and in the bell. */
export function bodyOf(type: string, payload: Record<string, unknown>): string {
  switch (type as NotificationEventType) {
    case 'bot_stopped':
      return `Your ${subject(payload)} stopped: ${stopReasons[str(payload.reason)] ?? str(payload.reason)}.`;
    case 'bot_paused':
      return `Your ${subject(payload)} is paused: ${str(payload.reason)}`;
    case 'order_failures':
      return `Your ${subject(payload)} is paused because its orders keep failing: ${str(payload.reason)}`;
    case 'cycle_completed':
      return `Your ${subject(payload)} completed all its cycles.`;
    case 'deposit_credited':
      return `A deposit of ${str(payload.amount)} ${str(payload.token)} was credited.`;
    case 'withdrawal_approved':
      return `Your withdrawal of ${str(payload.amount)} USDT was approved and is being sent.`;
    case 'withdrawal_sent':
      return `Your withdrawal of ${str(payload.amount)} USDT was sent (transaction ${str(payload.txHash)}).`;
    case 'withdrawal_rejected':
      return `Your withdrawal of ${str(payload.amount)} USDT was rejected and refunded${payload.reason ? `: ${str(payload.reason)}` : '.'}`;
    case 'new_device_login':
      return `Your account was logged in from a new device: ${str(payload.device)}, IP ${str(payload.ip)}. If this was not you, change your password and log out the other sessions on the Security page.`;
    case 'api_key_changed':
      return payload.action === 'key_removed'
        ? `Your exchange API key ${str(payload.apiKey)} was removed (IP ${str(payload.ip)}). If this was not you, change your password now.`
        : `A new exchange API key ${str(payload.apiKey)} was saved (IP ${str(payload.ip)}). If this was not you, change your password and remove the key on Binance now.`;
    case 'withdrawal_requested':
      return `A withdrawal of ${str(payload.amount)} to ${str(payload.toAddress)} was requested (IP ${str(payload.ip)}). If this was not you, change your password now.`;
    case 'profit_limit_reached':
      return 'Your profit limit is used up: running bots open no new cycles until you subscribe again.';
    default:
      return type;
  }
}

export function titleOf(type: string): string {
  return notificationEventLabels[type as NotificationEventType] ?? type;
}

export function itemOf(row: EventRow): NotificationItem {
  const botType = row.payload.botType;
  return {
    id: String(row.id),
    type: row.type as NotificationEventType,
    title: titleOf(row.type),
    body: bodyOf(row.type, row.payload),
    botId: row.botId,
    botType:
      botType === 'multigrid' || botType === 'scalping' || botType === 'cycle' || botType === 'range'
        ? botType
        : null,
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
  };
}
