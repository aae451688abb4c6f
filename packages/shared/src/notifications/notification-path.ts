import type { NotificationItem } from './notifications.schema';

// Beside the schemas rather than in them: the header's bell needs only this, not zod.
/** The page an event links to: its bot's running page (a range grid's page), the cycles page, or the wallet. */
export function notificationPathOf(item: Pick<NotificationItem, 'type' | 'botId' | 'botType'>): string {
  if (item.botId && item.botType === 'scalping') return `/scalp-running-bot/${item.botId}`;
  if (item.botId && item.botType === 'cycle') return '/cycle';
  if (item.botId && item.botType === 'range') return `/grid-bot/${item.botId}`;
  if (item.botId) return `/running-bot/${item.botId}`;
  if (item.type === 'new_device_login') return '/security';
  if (item.type === 'api_key_changed') return '/api-setting';
  if (item.type.startsWith('withdrawal_')) return '/withdraw';
  if (item.type === 'deposit_credited') return '/Wallet-deposit';
  if (item.type === 'profit_limit_reached') return '/subscription';
  return '/dashboard';
}
