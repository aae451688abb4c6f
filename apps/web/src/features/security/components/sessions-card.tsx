import type { SessionInfo } from '@gridbot/shared';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { type DataColumn, DataTable } from '../../../components/ui/data-table';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { useEndOtherSessions, useEndSession, useSessions } from '../api/security';

/** Every signed-in browser of the account, each with "Log out"; the caller's own is marked. */
export function SessionsCard() {
  const sessions = useSessions();
  const end = useEndSession();
  const endOthers = useEndOtherSessions();
  const rows = sessions.data?.sessions;
  const others = (rows ?? []).filter((s) => !s.current).length;

  const run = (action: Promise<{ message: string }>) =>
    action.then(
      (reply) => toast.success(reply.message),
      (error: unknown) => toast.error(errorMessage(error, 'Could not log the session out.')),
    );

  const columns: DataColumn<SessionInfo>[] = [
    {
      key: 'device',
      header: 'Device',
      cell: (s) => (
        <span className="inline-flex items-center gap-2">
          {s.device}
          {s.current ? <Badge tone="primary">This device</Badge> : null}
        </span>
      ),
    },
    { key: 'ip', header: 'IP', cell: (s) => <span className="font-mono">{s.ip ?? '—'}</span> },
    { key: 'created', header: 'Signed in', cell: (s) => formatDateTime(s.createdAt) },
    { key: 'seen', header: 'Last seen', cell: (s) => formatDateTime(s.lastSeenAt) },
    {
      key: 'action',
      header: <span className="sr-only">Action</span>,
      label: 'Action',
      align: 'right',
      cell: (s) =>
        s.current ? null : (
          <Button
            size="sm"
            variant="outline"
            aria-label={`Log out ${s.device} (${s.ip ?? 'unknown IP'})`}
            onClick={() => void run(end.mutateAsync(s.id))}
          >
            Log out
          </Button>
        ),
    },
  ];

  return (
    <Card>
      <CardHeader
        className="flex-wrap"
        title="Sessions"
        description="Where your account is signed in now."
        actions={
          <Button
            size="sm"
            variant="outline"
            disabled={others === 0}
            loading={endOthers.isPending}
            onClick={() => void run(endOthers.mutateAsync(undefined))}
          >
            Log out everywhere else
          </Button>
        }
      />
      <DataTable
        caption="Active sessions"
        columns={columns}
        rows={rows}
        rowKey={(s) => s.id}
        loading={sessions.isPending}
        error={sessions.isError ? 'Could not load your sessions.' : null}
        onRetry={() => void sessions.refetch()}
      />
    </Card>
  );
}
