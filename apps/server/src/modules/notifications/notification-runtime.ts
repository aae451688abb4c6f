import type { Db } from '@gridbot/db';
import type { Bus } from '../../bus/bus';
import { publishUserEvents } from '../../bus/user-events';
import type { AppConfig } from '../../config/env';
import { systemClock } from '../../lib/clock';
import type { SecretBox } from '../../lib/secret-box';
import type { Mailer } from '../../mail/mailer';
import type { BotWritten } from '../bots';
import { NotificationDispatcher } from './dispatcher';
import { itemOf } from './notification-text';
import { TelegramApi } from './telegram-api';
import { webhookTargetsOf } from './webhook-guard';

type Log = (message: string, extra?: Record<string, unknown>) => void;

/** Committed fills and state changes of bots, on the bus for the push channel (`SupervisorDeps.onBotsWritten`). */
export function publishBotWrites(bus: Bus, writes: BotWritten[]): void {
  void publishUserEvents(
    bus,
    writes.map((w) => ({
      kind: 'bot',
      botId: w.botId,
      userId: w.userId,
      change: w.change,
      status: w.status,
      at: w.at,
    })),
  );
}

/**
 * The background side of notifications in a process that runs bots: the outbox dispatcher delivers
 * notifications (any number of processes may run one) and puts them on the bus for the bell. Answers the
 * function that stops it.
 */
export function startNotifications(options: {
  db: Db;
  bus: Bus;
  mailer: Mailer;
  secrets: SecretBox;
  config: AppConfig;
  log: Log;
}): () => Promise<void> {
  const { db, bus, config, log } = options;
  const dispatcher = new NotificationDispatcher({
    db,
    mailer: options.mailer,
    secrets: options.secrets,
    telegram: config.telegram ? new TelegramApi(config.telegram) : undefined,
    publicUrl: config.publicUrl,
    webhookTargets: webhookTargetsOf(config),
    now: () => systemClock.now(),
    log,
    onEvents: (events) => {
      void publishUserEvents(
        bus,
        events.map((event) => ({ kind: 'notification', userId: event.userId, item: itemOf(event) })),
      );
    },
  });
  dispatcher.start();
  return () => dispatcher.stop();
}
