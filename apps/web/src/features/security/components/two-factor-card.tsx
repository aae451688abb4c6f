import type { TwoFactorSetup } from '@gridbot/shared';
import { lazy, Suspense, useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import {
  useDisableTwoFactor,
  useEnableTwoFactor,
  useStartTwoFactor,
  useTwoFactorStatus,
} from '../api/security';

// The QR encoder loads only when someone sets 2FA up.
const QrCode = lazy(() => import('../../../components/ui/qr-code').then((m) => ({ default: m.QrCode })));

function CodeForm(props: {
  label: string;
  submit: string;
  pending: boolean;
  onCode: (code: string) => void;
}) {
  const [code, setCode] = useState('');
  return (
    <form
      noValidate
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        props.onCode(code.trim());
      }}
    >
      <Input
        label={props.label}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={11}
        containerClassName="w-48"
        className="font-mono tracking-widest"
        value={code}
        onChange={(event) => setCode(event.target.value)}
      />
      <Button type="submit" loading={props.pending}>
        {props.submit}
      </Button>
    </form>
  );
}

function SetupStep({ setup, onDone }: { setup: TwoFactorSetup; onDone: (codes: string[]) => void }) {
  const enable = useEnableTwoFactor();
  return (
    <div className="space-y-4">
      <p className="text-sm text-muted">
        Scan the QR code with an authenticator app (Google Authenticator, Authy, 1Password…), or type the key
        in by hand, then enter the 6-digit code it shows.
      </p>
      <div className="flex flex-wrap items-center gap-5">
        <Suspense fallback={<Skeleton className="size-40" />}>
          <QrCode value={setup.otpauthUrl} label="QR code for your authenticator app" className="size-40" />
        </Suspense>
        <div className="min-w-0 space-y-1">
          <p className="text-xs font-medium text-muted">Setup key</p>
          <code data-testid="totp-secret" className="block break-all font-mono text-sm font-semibold text-fg">
            {setup.secret}
          </code>
        </div>
      </div>
      <CodeForm
        label="Code from the app"
        submit="Turn on"
        pending={enable.isPending}
        onCode={(code) =>
          enable.mutateAsync(code).then(
            (reply) => {
              toast.success(reply.message);
              onDone(reply.recoveryCodes);
            },
            (error: unknown) => toast.error(errorMessage(error, 'Could not turn two-factor sign-in on.')),
          )
        }
      />
    </div>
  );
}

function RecoveryCodes({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  return (
    <div className="space-y-3 rounded-lg border border-warn/40 bg-warn/8 p-4">
      <p className="text-sm font-semibold text-fg">Your recovery codes: shown this once</p>
      <p className="text-sm text-muted">
        Each one signs you in once without the app. Print them or keep them in a password manager.
      </p>
      <ol
        data-testid="recovery-codes"
        className="grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-sm whitespace-nowrap"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <Button size="sm" variant="outline" onClick={onClose}>
        I have saved them
      </Button>
    </div>
  );
}

/** Two-factor sign-in (TOTP): set up with a QR code and a first code; turning it off asks for a code. */
export function TwoFactorCard() {
  const status = useTwoFactorStatus();
  const start = useStartTwoFactor();
  const disable = useDisableTwoFactor();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const enabled = status.data?.enabled ?? false;

  let body = <Skeleton className="h-10 w-64" />;
  if (codes) body = <RecoveryCodes codes={codes} onClose={() => setCodes(null)} />;
  else if (status.data && enabled)
    body = (
      <div className="space-y-4">
        <p className="text-sm text-muted">
          Sign-in, API key changes and withdrawals ask for a code from your app.{' '}
          {status.data.recoveryCodesLeft} of 10 recovery codes left.
        </p>
        <CodeForm
          label="Code to turn it off"
          submit="Turn off"
          pending={disable.isPending}
          onCode={(code) =>
            disable.mutateAsync(code).then(
              (reply) => toast.success(reply.message),
              (error: unknown) => toast.error(errorMessage(error, 'Could not turn two-factor sign-in off.')),
            )
          }
        />
      </div>
    );
  else if (setup)
    body = (
      <SetupStep
        setup={setup}
        onDone={(recovery) => {
          setSetup(null);
          setCodes(recovery);
        }}
      />
    );
  else if (status.data)
    body = (
      <div className="space-y-3">
        {status.data.required ? (
          <p className="text-sm font-medium text-warn">Administrators must turn two-factor sign-in on.</p>
        ) : null}
        <p className="text-sm text-muted">
          Protect your account with a code from an authenticator app on top of your password.
        </p>
        <Button
          loading={start.isPending}
          onClick={() =>
            start
              .mutateAsync(undefined)
              .then(setSetup, (error: unknown) =>
                toast.error(errorMessage(error, 'Could not start the setup.')),
              )
          }
        >
          Set up two-factor sign-in
        </Button>
      </div>
    );

  return (
    <Card>
      <CardHeader
        title="Two-factor sign-in"
        description="A code from your phone at every sign-in."
        actions={
          status.data ? <Badge tone={enabled ? 'up' : 'neutral'}>{enabled ? 'On' : 'Off'}</Badge> : null
        }
      />
      <CardBody>{body}</CardBody>
    </Card>
  );
}
