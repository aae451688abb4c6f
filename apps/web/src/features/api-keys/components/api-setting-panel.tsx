import { useState } from 'react';
import { useStoredApiKey } from '../api/api-keys';
import { ApiKeysForm } from './api-keys-form';
import { ConnectionCard } from './connection-card';
import { DisconnectDialog } from './disconnect-dialog';

/** Spec 01 API Setting: the connection on the left, the key form on the right (stacked on phones). */
export function ApiSettingPanel() {
  const [confirming, setConfirming] = useState(false);
  const stored = useStoredApiKey();

  return (
    <div className="grid items-start gap-6 lg:grid-cols-2">
      <ConnectionCard onDisconnect={() => setConfirming(true)} />
      <ApiKeysForm replacing={Boolean(stored.data?.apiKey)} />
      <DisconnectDialog open={confirming} onClose={() => setConfirming(false)} />
    </div>
  );
}
