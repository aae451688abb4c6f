import {
  alwaysEmailedEvents,
  type NotificationChannel,
  type NotificationEventType,
  type NotificationRouting,
  type NotificationSettings,
  notificationChannels,
  notificationEventLabels,
  notificationEventTypes,
  notificationSettingsInputSchema,
} from '@gridbot/shared';
import { useEffect, useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { type DataColumn, DataTable } from '../../../components/ui/data-table';
import { Input } from '../../../components/ui/input';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import {
  type TelegramLink,
  useNotificationSettings,
  useRotateWebhookSecret,
  useSaveNotificationSettings,
  useTelegramLinkCode,
  useTestWebhook,
  useUnlinkTelegram,
} from '../api/notifications';

const channelNames: Record<NotificationChannel, string> = {
  email: 'E-mail',
  telegram: 'Telegram',
  webhook: 'Webhook',
};

/** The routing table's columns: the event (its row's header), then a checkbox per channel. */
function routingColumns(
  routing: NotificationRouting,
  usable: Record<NotificationChannel, boolean>,
  toggle: (event: NotificationEventType, channel: NotificationChannel, on: boolean) => void,
): DataColumn<NotificationEventType>[] {
  return [
    {
      key: 'event',
      header: 'Event',
      rowHeader: true,
      cell: (event) => notificationEventLabels[event],
      className: 'whitespace-normal',
    },
    ...notificationChannels.map(
      (channel): DataColumn<NotificationEventType> => ({
        key: channel,
        header: channelNames[channel],
        align: 'center',
        tight: true,
        className: 'w-[4.5rem] sm:w-24',
        cell: (event) => {
          // Security events are always e-mailed: that box is ticked and cannot be cleared.
          const forced = channel === 'email' && alwaysEmailedEvents.includes(event);
          return (
            <input
              type="checkbox"
              className="size-4.5 accent-[var(--color-primary-solid)]"
              aria-label={`${notificationEventLabels[event]} by ${channelNames[channel]}`}
              title={forced ? 'Always e-mailed: it protects your account' : undefined}
              checked={forced || (routing[event]?.includes(channel) ?? false)}
              disabled={forced || (!usable[channel] && !routing[event]?.includes(channel))}
              onChange={(e) => toggle(event, channel, e.target.checked)}
            />
          );
        },
      }),
    ),
  ];
}

/** The Notifications page: which events go to which channel, and the channels themselves. */
export function NotificationSettingsPanel() {
  const settings = useNotificationSettings();
  if (!settings.data) {
    return <p className="text-sm text-muted">{settings.isError ? settings.error.message : 'Loading…'}</p>;
  }
  return <SettingsForm settings={settings.data} />;
}

function SettingsForm({ settings }: { settings: NotificationSettings }) {
  const [routing, setRouting] = useState<NotificationRouting>(settings.routing);
  const [webhookUrl, setWebhookUrl] = useState(settings.webhookUrl ?? '');
  const [urlError, setUrlError] = useState<string | undefined>();
  const save = useSaveNotificationSettings();
  useEffect(() => setRouting(settings.routing), [settings.routing]);

  const toggle = (event: keyof NotificationRouting, channel: NotificationChannel, on: boolean) =>
    setRouting((current) => {
      const channels = new Set(current[event] ?? []);
      if (on) channels.add(channel);
      else channels.delete(channel);
      return { ...current, [event]: notificationChannels.filter((c) => channels.has(c)) };
    });

  const onSave = () => {
    const parsed = notificationSettingsInputSchema.safeParse({
      routing,
      webhookUrl: webhookUrl.trim() || null,
    });
    if (!parsed.success) {
      setUrlError(parsed.error.issues.find((issue) => issue.path[0] === 'webhookUrl')?.message);
      return;
    }
    setUrlError(undefined);
    save.mutate(parsed.data, {
      onSuccess: () => toast.success('Notification settings saved'),
      onError: (error) => toast.error(errorMessage(error, 'Could not save the settings')),
    });
  };

  const usable: Record<NotificationChannel, boolean> = {
    email: true,
    telegram: settings.telegram.linked,
    webhook: settings.webhookUrl !== null,
  };

  return (
    <div className="grid gap-6">
      <ChannelWarnings settings={settings} />
      <Card>
        <CardHeader
          title="What reaches you"
          description="Every event shows under the bell. Choose where else each one goes."
        />
        <DataTable
          caption="What reaches you"
          columns={routingColumns(routing, usable, toggle)}
          rows={notificationEventTypes}
          rowKey={(event) => event}
          loading={false}
          tableOnPhone
        />
      </Card>

      <div className="grid gap-6 lg:grid-cols-3">
        <Card>
          <CardHeader title="E-mail" description={`Sent to ${settings.email}.`} />
        </Card>
        <TelegramCard settings={settings} />
        <Card>
          <CardHeader title="Webhook" description="We POST each event as JSON, signed with HMAC-SHA256." />
          <CardBody className="grid gap-4">
            <Input
              label="URL"
              type="url"
              inputMode="url"
              placeholder="https://example.com/gridbot"
              value={webhookUrl}
              error={urlError}
              onChange={(e) => setWebhookUrl(e.target.value)}
            />
            {settings.webhookSecret ? <WebhookKey secret={settings.webhookSecret} /> : null}
            {settings.webhookUrl ? <WebhookTest /> : null}
          </CardBody>
        </Card>
      </div>

      <div className="flex justify-end">
        <Button onClick={onSave} disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save settings'}
        </Button>
      </div>
    </div>
  );
}

function ChannelWarnings({ settings }: { settings: NotificationSettings }) {
  const failing = notificationChannels.filter((channel) => settings.health[channel].failing);
  if (failing.length === 0) return null;
  return (
    <div role="alert" className="grid gap-2 rounded-xl border border-down/40 bg-down/10 p-4 text-sm">
      {failing.map((channel) => (
        <p key={channel} className="text-fg">
          <Badge tone="down">Failing</Badge> <strong>{channelNames[channel]}</strong>: notifications could not
          be delivered ({settings.health[channel].lastError}). Check the channel; the next one that gets
          through clears this.
        </p>
      ))}
    </div>
  );
}

function TelegramCard({ settings }: { settings: NotificationSettings }) {
  const linkCode = useTelegramLinkCode();
  const unlink = useUnlinkTelegram();
  const [link, setLink] = useState<TelegramLink | null>(null);
  if (!settings.telegram.available) {
    return (
      <Card>
        <CardHeader title="Telegram" description="Not available on this platform." />
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader
        title="Telegram"
        description={
          settings.telegram.linked ? 'A chat is linked.' : 'Link a chat to get messages from our bot.'
        }
        actions={settings.telegram.linked ? <Badge tone="up">Linked</Badge> : null}
      />
      <CardBody className="grid gap-3 text-sm">
        {link ? (
          <>
            <p className="text-muted">
              Send this code to{' '}
              {link.botUsername ? <strong className="text-fg">@{link.botUsername}</strong> : 'our bot'} within
              15 minutes:
            </p>
            <p className="flex items-center gap-2">
              <code className="rounded-md bg-surface-2 px-2 py-1 font-mono text-base font-bold tracking-widest text-fg">
                {link.code}
              </code>
              <CopyButton value={link.code} label="Copy code" successMessage="Code copied" />
            </p>
            {link.link ? (
              <a
                href={link.link}
                target="_blank"
                rel="noreferrer"
                className="font-semibold text-primary hover:underline"
              >
                Open the bot in Telegram
              </a>
            ) : null}
          </>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={linkCode.isPending}
            onClick={() =>
              linkCode.mutate(undefined, {
                onSuccess: setLink,
                onError: (error) => toast.error(errorMessage(error, 'Could not make a code')),
              })
            }
          >
            {settings.telegram.linked ? 'Link another chat' : 'Link Telegram'}
          </Button>
          {settings.telegram.linked ? (
            <Button variant="ghost" size="sm" disabled={unlink.isPending} onClick={() => unlink.mutate()}>
              Unlink
            </Button>
          ) : null}
        </div>
      </CardBody>
    </Card>
  );
}

function WebhookKey({ secret }: { secret: string }) {
  const rotate = useRotateWebhookSecret();
  const [shown, setShown] = useState(false);
  return (
    <div className="grid gap-1.5 text-sm">
      <p className="font-medium text-fg">Signing key</p>
      <p className="text-xs text-muted">
        Header <code>X-Gridbot-Signature: sha256=HMAC(key, body)</code>; <code>X-Gridbot-Delivery</code> is
        the same on a retry.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 truncate rounded-md bg-surface-2 px-2 py-1 font-mono text-xs text-fg">
          {shown ? secret : '•'.repeat(24)}
        </code>
        <Button variant="ghost" size="sm" onClick={() => setShown((v) => !v)}>
          {shown ? 'Hide' : 'Show'}
        </Button>
        <CopyButton value={secret} label="Copy key" successMessage="Key copied" />
        <Button variant="ghost" size="sm" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
          New key
        </Button>
      </div>
    </div>
  );
}

function WebhookTest() {
  const test = useTestWebhook();
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button
        variant="outline"
        size="sm"
        disabled={test.isPending}
        onClick={() =>
          test.mutate(undefined, {
            onSuccess: (result) => (result.ok ? toast.success(result.message) : toast.error(result.message)),
            onError: (error) => toast.error(errorMessage(error, 'The test could not be sent')),
          })
        }
      >
        {test.isPending ? 'Sending…' : 'Send a test'}
      </Button>
      {test.data ? (
        <span className={test.data.ok ? 'text-sm text-up' : 'text-sm text-down'}>{test.data.message}</span>
      ) : null}
    </div>
  );
}
