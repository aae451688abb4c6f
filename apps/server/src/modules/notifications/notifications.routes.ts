import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type NotificationChannel,
  type NotificationList,
  type NotificationSettings,
  notificationApiPaths,
  notificationChannels,
  notificationMessages,
  notificationSettingsInputSchema,
} from '@gridbot/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app/deps';
import { HttpError } from '../../lib/http-error';
import { currentUser, requireUser } from '../../plugins/auth';
import { itemOf } from './notification-text';
import { listEvents, markRead, type SettingsRow, settingsOf, upsertSettings } from './notifications.repo';
import { createLinkCode } from './telegram-link';
import { postWebhook, WEBHOOK_TIMEOUT_MS, WEBHOOK_UNREACHABLE } from './webhook';
import { assertPublicWebhookUrl, webhookTargetsOf } from './webhook-guard';

const readInputSchema = z.object({
  ids: z
    .array(z.string().regex(/^\d{1,18}$/))
    .max(100)
    .optional(),
});

const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

/** The bell (GET /api/notifications) and the Notifications settings page. Every query is the user's own. */
export async function notificationRoutes(app: FastifyInstance, deps: AppDeps) {
  const guard = { onRequest: requireUser(deps) };
  const webhookTargets = webhookTargetsOf(deps.config);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  const settingsView = (row: SettingsRow | undefined, email: string): NotificationSettings => {
    const health = Object.fromEntries(
      notificationChannels.map((channel) => [
        channel,
        row?.health[channel] ?? { failing: false, lastError: null },
      ]),
    ) as Record<NotificationChannel, { failing: boolean; lastError: string | null }>;
    return {
      routing: row?.routing ?? {},
      email,
      telegram: {
        available: deps.config.telegram !== undefined,
        linked: Boolean(row?.telegramChatId),
        botUsername: deps.config.telegram?.username ?? null,
      },
      webhookUrl: row?.webhookUrl ?? null,
      webhookSecret: row?.webhookSecretSealed ? deps.secrets.open(row.webhookSecretSealed) : null,
      health,
    };
  };

  routes.get(notificationApiPaths.list, guard, async (req): Promise<NotificationList> => {
    const { rows, unread } = await listEvents(deps.db, currentUser(req).id);
    return { unread, items: rows.map(itemOf) };
  });

  routes.post(notificationApiPaths.markRead, { ...guard, schema: { body: readInputSchema } }, async (req) => {
    const user = currentUser(req);
    await markRead(deps.db, user.id, req.body.ids?.map(Number) ?? 'all', deps.clock.now());
    return { unread: (await listEvents(deps.db, user.id, 0)).unread };
  });

  routes.get(notificationApiPaths.settings, guard, async (req) => {
    const user = currentUser(req);
    return settingsView(await settingsOf(deps.db, user.id), user.email);
  });

  routes.put(
    notificationApiPaths.settings,
    { ...guard, schema: { body: notificationSettingsInputSchema } },
    async (req) => {
      const user = currentUser(req);
      const current = await settingsOf(deps.db, user.id);
      const { routing, webhookUrl } = req.body;
      if (webhookUrl)
        await assertPublicWebhookUrl(webhookUrl, webhookTargets).catch(() => {
          throw new HttpError(400, notificationMessages.webhookPrivate);
        });
      const changedUrl = webhookUrl !== (current?.webhookUrl ?? null);
      await upsertSettings(
        deps.db,
        user.id,
        {
          routing,
          webhookUrl,
          // A new URL starts with a clean record and, the first time, a key to sign with.
          ...(webhookUrl && !current?.webhookSecretSealed
            ? { webhookSecretSealed: deps.secrets.seal(newWebhookSecret()) }
            : {}),
          ...(changedUrl
            ? { health: { ...(current?.health ?? {}), webhook: { failing: false, lastError: null } } }
            : {}),
        },
        deps.clock.now(),
      );
      return settingsView(await settingsOf(deps.db, user.id), user.email);
    },
  );

  routes.post(notificationApiPaths.webhookSecret, guard, async (req) => {
    const user = currentUser(req);
    await upsertSettings(
      deps.db,
      user.id,
      { webhookSecretSealed: deps.secrets.seal(newWebhookSecret()) },
      deps.clock.now(),
    );
    return settingsView(await settingsOf(deps.db, user.id), user.email);
  });

  /** Sends a signed test body to the saved URL now and says how it went. */
  routes.post(notificationApiPaths.webhookTest, guard, async (req) => {
    const user = currentUser(req);
    const row = await settingsOf(deps.db, user.id);
    if (!row?.webhookUrl || !row.webhookSecretSealed)
      throw new HttpError(400, notificationMessages.webhookMissing);
    const startedMs = performance.now();
    try {
      await postWebhook(
        row.webhookUrl,
        deps.secrets.open(row.webhookSecretSealed),
        `test-${deps.clock.now().getTime()}`,
        {
          type: 'test',
          title: 'Test',
          body: 'A test notification from Gridbot.',
          createdAt: deps.clock.now().toISOString(),
        },
        webhookTargets,
      );
      return { ok: true, message: 'The webhook answered with success.' };
    } catch (error) {
      const message = (error as Error).message;
      // A refused port fails at once and a filtered one at the timeout: every unreachable answer comes at
      // the timeout, so its time tells no more than its words.
      if (message === WEBHOOK_UNREACHABLE) await sleep(WEBHOOK_TIMEOUT_MS - (performance.now() - startedMs));
      return { ok: false, message };
    }
  });

  routes.post(notificationApiPaths.telegramLink, guard, async (req) => {
    const telegram = deps.config.telegram;
    if (!telegram) throw new HttpError(400, notificationMessages.telegramNotConfigured);
    const { code, expiresAt } = await createLinkCode(deps.db, currentUser(req).id, deps.clock.now());
    return {
      code,
      expiresAt: expiresAt.toISOString(),
      botUsername: telegram.username,
      // A t.me deep link sends "/start CODE" with one tap (core.telegram.org/bots/features#deep-linking).
      link: telegram.username ? `https://t.me/${telegram.username}?start=${code}` : null,
    };
  });

  routes.delete(notificationApiPaths.telegram, guard, async (req) => {
    const user = currentUser(req);
    await upsertSettings(
      deps.db,
      user.id,
      { telegramChatId: null, telegramLinkCodeHash: null },
      deps.clock.now(),
    );
    return settingsView(await settingsOf(deps.db, user.id), user.email);
  });
}
