import type { Db } from '@gridbot/db';
import { notificationPathOf } from '@gridbot/shared';
import type { SecretBox } from '../../lib/secret-box';
import type { Mailer } from '../../mail/mailer';
import { type EventRow, itemOf } from './notification-text';
import { type ClaimedDelivery, claimDue, fanOut, markFailed, markSent } from './notifications.repo';
import { type TelegramApi, TelegramError } from './telegram-api';
import { pollTelegramLinks } from './telegram-link';
import { postWebhook } from './webhook';
import type { WebhookTargetPolicy } from './webhook-guard';

export interface DispatcherDeps {
  db: Db;
  mailer: Mailer;
  secrets: SecretBox;
  /** Absent: the platform has no Telegram bot, and Telegram deliveries fail (and are marked). */
  telegram?: TelegramApi;
  publicUrl: string;
  /** Whether webhooks may reach private addresses (local testing only); absent: public targets only. */
  webhookTargets?: WebhookTargetPolicy;
  now: () => Date;
  log: (message: string, extra?: Record<string, unknown>) => void;
  /** Told about events just taken from the outbox (the bell's live update over the push channel). */
  onEvents?: (events: EventRow[]) => void;
  pollMs?: number;
  /** How long a claimed delivery is held before another dispatcher may take it (a crashed one's). */
  claimMs?: number;
  /** Attempts per delivery before it is given up and its channel marked failing. */
  maxAttempts?: number;
  /** Wait before attempt `attempt + 1`. */
  backoffMs?: (attempt: number) => number;
}

/** 30 s, 1 min, 2 min … up to an hour, ±20 % so failures spread out. */
export function defaultBackoffMs(attempt: number): number {
  const base = Math.min(30_000 * 2 ** (attempt - 1), 3_600_000);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/**
 * Moves notifications from the outbox to their channels. Each event gets one delivery row per channel
 * (fanOut); a delivery is claimed, sent, and marked sent, so it is sent once, or again only when a process
 * died between the send and the mark (the webhook's delivery id lets a receiver drop that repeat).
 * Any number of processes may run one: claims use `FOR UPDATE SKIP LOCKED`.
 */
export class NotificationDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: DispatcherDeps) {}

  start(): void {
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.running = this.runOnce()
        .then(() => undefined)
        .catch((error: unknown) => this.deps.log('notification dispatch failed', { err: String(error) }))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, this.deps.pollMs ?? 1_000);
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass: fan out new events, then send what is due. Answers how many deliveries were attempted. */
  async runOnce(): Promise<number> {
    if (this.deps.telegram) {
      await pollTelegramLinks(this.deps.db, this.deps.telegram, this.deps.now()).catch((error: unknown) =>
        this.deps.log('telegram link poll failed', { err: String((error as Error).message ?? error) }),
      );
    }
    const events = await fanOut(this.deps.db, this.deps.now());
    if (events.length > 0) this.deps.onEvents?.(events);
    const due = await claimDue(this.deps.db, this.deps.now(), this.deps.claimMs ?? 60_000);
    await Promise.all(due.map((delivery) => this.deliver(delivery)));
    return due.length;
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    try {
      await this.send(delivery);
    } catch (error) {
      const maxAttempts = this.deps.maxAttempts ?? 6;
      let waitMs = (this.deps.backoffMs ?? defaultBackoffMs)(delivery.attempts);
      // Flood control says how long to wait (core.telegram.org/bots/api#responseparameters).
      if (error instanceof TelegramError && error.retryAfterS !== undefined) {
        waitMs = Math.max(waitMs, error.retryAfterS * 1000);
      }
      const retryAt = delivery.attempts >= maxAttempts ? null : new Date(this.deps.now().getTime() + waitMs);
      this.deps.log('notification delivery failed', {
        deliveryId: delivery.id,
        channel: delivery.channel,
        attempts: delivery.attempts,
        err: String((error as Error).message ?? error),
      });
      await markFailed(this.deps.db, delivery, (error as Error).message ?? String(error), retryAt);
      return;
    }
    await markSent(this.deps.db, delivery, this.deps.now());
  }

  private async send(delivery: ClaimedDelivery): Promise<void> {
    const item = itemOf(delivery.event);
    const link = `${this.deps.publicUrl}${notificationPathOf(item)}`;
    switch (delivery.channel) {
      case 'email':
        return this.deps.mailer.send({
          to: delivery.email,
          subject: `Gridbot: ${item.title}`,
          text: `${item.body}\n\n${link}\n\nChoose which notifications you get: ${this.deps.publicUrl}/notifications`,
        });
      case 'telegram': {
        if (!this.deps.telegram) throw new Error('Telegram is not configured on this platform');
        if (!delivery.telegramChatId) throw new Error('no Telegram chat linked');
        return this.deps.telegram.sendMessage(
          delivery.telegramChatId,
          `${item.title}\n${item.body}\n${link}`,
        );
      }
      case 'webhook': {
        if (!delivery.webhookUrl || !delivery.webhookSecretSealed) throw new Error('no webhook set');
        return postWebhook(
          delivery.webhookUrl,
          this.deps.secrets.open(delivery.webhookSecretSealed),
          String(delivery.id),
          {
            id: item.id,
            type: item.type,
            title: item.title,
            body: item.body,
            botId: item.botId,
            link,
            createdAt: item.createdAt,
            data: delivery.event.payload,
          },
          this.deps.webhookTargets ?? { allowPrivate: false },
        );
      }
      default:
        throw new Error(`unknown channel ${String(delivery.channel)}`);
    }
  }
}
