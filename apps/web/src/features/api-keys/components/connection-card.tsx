import { KEY_EXCHANGE_NAMES } from '@gridbot/shared';
import type { ReactNode } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatDateTime } from '../../../lib/format';
import { useConnectionStatus, useServerIp, useStoredApiKey } from '../api/api-keys';
import { keyExchangeList } from '../lib/exchange-names';
import { CopyButton } from './copy-button';

/** docs/spec/01-core-screens.md §9: the secret is never shown, only 64 dots. */
export const SECRET_MASK = '•'.repeat(64);

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1.5 border-b border-line py-3.5 first:pt-0 last:border-b-0 last:pb-0 sm:grid-cols-[9rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-muted">{label}</dt>
      <dd className="min-w-0 text-sm text-fg">{children}</dd>
    </div>
  );
}

function ConnectionBadge() {
  const status = useConnectionStatus();
  if (status.isPending) return <Skeleton className="h-5 w-24" />;
  if (status.isError) return <Badge tone="warn">Unknown</Badge>;
  return status.data.connected ? (
    <Badge tone="up" className="gap-1.5 px-2 py-1 text-xs normal-case">
      <span className="size-1.5 rounded-full bg-up" aria-hidden="true" />
      Connected
    </Badge>
  ) : (
    <Badge tone="down" className="gap-1.5 px-2 py-1 text-xs normal-case">
      <span className="size-1.5 rounded-full bg-down" aria-hidden="true" />
      Disconnected
    </Badge>
  );
}

const rights = [
  ['Reading', 'enableReading', true],
  ['Spot trading', 'enableSpotAndMarginTrading', true],
  ['Futures trading', 'enableFutures', true],
  ['Withdrawals', 'enableWithdrawals', false],
  ['IP restriction', 'ipRestricted', true],
] as const;

/** What the bound key may do (Binance's apiRestrictions), each with a tick when it is as it should be. */
function PermissionRows() {
  const permissions = useConnectionStatus().data?.permissions;
  if (!permissions) return null;
  return (
    <Row label="Permissions">
      <ul className="space-y-1" data-testid="key-permissions">
        {rights.map(([label, field, wanted]) => {
          const granted = permissions[field];
          const good = granted === wanted;
          return (
            <li key={field} className="flex items-center gap-2">
              <span aria-hidden="true" className={good ? 'font-bold text-up' : 'font-bold text-down'}>
                {granted ? '✓' : '✗'}
              </span>
              <span>
                {label}
                <span className="sr-only">{granted ? ': on' : ': off'}</span>
              </span>
            </li>
          );
        })}
      </ul>
      <p className="mt-1.5 text-xs text-muted">
        Checked {formatDateTime(permissions.checkedAt)}; again daily.
      </p>
    </Row>
  );
}

interface ConnectionCardProps {
  onDisconnect: () => void;
}

/** IP to whitelist, connection status, the bound key and the masked secret (docs/spec/01-core-screens.md API Setting). */
export function ConnectionCard({ onDisconnect }: ConnectionCardProps) {
  const serverIp = useServerIp();
  const stored = useStoredApiKey();
  const apiKey = stored.data?.apiKey ?? null;
  const exchange = stored.data?.exchange ?? null;

  return (
    <Card>
      <CardHeader
        title="Exchange connection"
        description={`${keyExchangeList()}: spot and USDT perpetuals`}
        actions={<ConnectionBadge />}
      />
      <CardBody>
        <dl>
          <Row label="IP to whitelist">
            {serverIp.isPending ? (
              <Skeleton className="h-8 w-48" />
            ) : serverIp.isError ? (
              <span className="text-muted">Could not load the server IP.</span>
            ) : (
              <div className="flex flex-wrap items-center gap-2">
                <code className="rounded-md bg-surface-2 px-2 py-1 font-mono text-[0.8125rem] font-semibold">
                  {serverIp.data.ip}
                </code>
                <CopyButton
                  value={serverIp.data.ip}
                  label="Copy IP address"
                  successMessage="IP address copied successfully!"
                />
              </div>
            )}
          </Row>
          {apiKey && exchange ? (
            <Row label="Exchange">
              <span data-testid="bound-exchange">{KEY_EXCHANGE_NAMES[exchange]}</span>
            </Row>
          ) : null}
          <Row label="API Key">
            {stored.isPending ? (
              <Skeleton className="h-5 w-full max-w-xs" />
            ) : apiKey ? (
              <span data-testid="bound-api-key" className="block break-all font-mono text-[0.8125rem]">
                {apiKey}
              </span>
            ) : (
              <span className="text-muted">No key connected</span>
            )}
          </Row>
          <PermissionRows />
          <Row label="Secret Key">
            {stored.isPending ? (
              <Skeleton className="h-5 w-full max-w-xs" />
            ) : apiKey ? (
              <span
                data-testid="masked-secret"
                className="block break-all font-mono text-[0.8125rem] leading-5 tracking-tight text-muted"
              >
                {SECRET_MASK}
              </span>
            ) : (
              <span className="text-muted">—</span>
            )}
          </Row>
        </dl>
        {apiKey ? (
          <div className="mt-5 flex justify-end border-t border-line pt-4">
            <Button variant="outline" className="text-down hover:bg-down/10" onClick={onDisconnect}>
              Disconnect
            </Button>
          </div>
        ) : null}
      </CardBody>
    </Card>
  );
}
