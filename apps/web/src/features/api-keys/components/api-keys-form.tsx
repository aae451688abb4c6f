import {
  type ApiKeysForm as ApiKeysFormValues,
  apiKeysFormSchema,
  KEY_EXCHANGE_NAMES,
  KEY_EXCHANGES,
  type KeyExchange,
  walletMessages,
} from '@gridbot/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { SelectField } from '../../../components/ui/select-field';
import { isApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useSaveApiKeys } from '../api/api-keys';

interface ApiKeysFormProps {
  /** A key is bound already: saving replaces it. */
  replacing: boolean;
  /** The exchange the form starts on: the bound key's. */
  exchange: KeyExchange;
}

/** Key and secret, checked with the shared schema (docs/spec/01-core-screens.md §5), saved with the docs/spec/01-core-screens.md §8 toasts. */
export function ApiKeysForm({ replacing, exchange }: ApiKeysFormProps) {
  const save = useSaveApiKeys();
  // With two-factor sign-in on, the server answers 403 `twoFactorRequired` and the form asks for the code.
  const [needsCode, setNeedsCode] = useState(false);
  const [code, setCode] = useState('');
  const form = useForm<ApiKeysFormValues>({
    resolver: zodResolver(apiKeysFormSchema),
    defaultValues: { exchange, apiKey: '', secretKey: '' },
  });
  const { errors } = form.formState;
  // A replacement starts on the exchange already bound (known once the stored key has loaded), unless the
  // user has chosen one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the bound exchange only
  useEffect(() => {
    if (!form.getFieldState('exchange').isDirty) form.setValue('exchange', exchange);
  }, [exchange]);
  // OKX keys carry a passphrase chosen when the key was made; the other exchanges have none.
  const okx = form.watch('exchange') === 'okx';

  const onSubmit = form.handleSubmit(({ passphrase, ...keys }) =>
    save
      .mutateAsync({ ...keys, ...(keys.exchange === 'okx' ? { passphrase } : {}), ...(code ? { code } : {}) })
      .then(
        (reply) => {
          toast.success(walletMessages.keysSaved);
          if (reply.warning) toast.warning(reply.warning, { duration: 15_000 });
          form.reset({ exchange: keys.exchange, apiKey: '', secretKey: '' });
          setCode('');
        },
        (error: unknown) => {
          if (isApiError(error) && error.body?.twoFactorRequired === true) {
            setNeedsCode(true);
            toast.error(error.message);
            return;
          }
          // The spec's text, with the exchange's reason (e.g. a refused key) underneath when it gave one.
          const reason =
            isApiError(error) && error.fromServer && error.status < 500 ? error.message : undefined;
          toast.error(walletMessages.keysSaveFailed, { description: reason });
        },
      ),
  );

  return (
    <Card>
      <CardHeader
        title={replacing ? 'Replace API keys' : 'Connect API keys'}
        description="Paste a key created on your exchange account."
      />
      <CardBody>
        <ol className="mb-5 space-y-1.5 text-sm text-muted">
          <li>
            <span className="font-semibold text-fg">1.</span> Create an API key with spot and futures trading
            enabled. Never enable withdrawals.
          </li>
          <li>
            <span className="font-semibold text-fg">2.</span> Restrict it to the IP shown on this page.
          </li>
          <li>
            <span className="font-semibold text-fg">3.</span> Paste the key and its secret below and save.
          </li>
        </ol>
        <form noValidate onSubmit={onSubmit} className="space-y-4">
          <SelectField label="Exchange" error={errors.exchange?.message} {...form.register('exchange')}>
            {KEY_EXCHANGES.map((exchange) => (
              <option key={exchange} value={exchange}>
                {KEY_EXCHANGE_NAMES[exchange]}
              </option>
            ))}
          </SelectField>
          <Input
            label="API Key"
            autoComplete="off"
            spellCheck={false}
            maxLength={128}
            placeholder="Your API key"
            className="font-mono"
            error={errors.apiKey?.message}
            {...form.register('apiKey')}
          />
          <Input
            label="Secret Key"
            type="password"
            autoComplete="new-password"
            spellCheck={false}
            maxLength={128}
            placeholder="Your secret key"
            className="font-mono"
            error={errors.secretKey?.message}
            {...form.register('secretKey')}
          />
          {okx ? (
            <Input
              label="Passphrase"
              type="password"
              autoComplete="new-password"
              spellCheck={false}
              maxLength={128}
              placeholder="The passphrase of your OKX API key"
              error={errors.passphrase?.message}
              {...form.register('passphrase')}
            />
          ) : null}
          {needsCode ? (
            <Input
              label="Authentication code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={11}
              placeholder="6-digit code"
              className="font-mono tracking-widest"
              value={code}
              onChange={(event) => setCode(event.target.value.trim())}
            />
          ) : null}
          <div className="flex justify-end">
            <Button type="submit" loading={save.isPending} className="min-w-28">
              {save.isPending ? 'Saving...' : 'Save'}
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
