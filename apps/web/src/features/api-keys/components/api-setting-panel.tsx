import { useState } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CheckCircleIcon } from '../../../components/ui/icons';
import { useConnectionStatus, useStoredApiKey } from '../api/api-keys';
import { keyExchangeList } from '../lib/exchange-names';
import { ApiKeysForm } from './api-keys-form';
import { ConnectionCard } from './connection-card';
import { DisconnectDialog } from './disconnect-dialog';

/** The paper exchange: every account trades on its own paper account, so there is nothing to connect. */
function PaperNotice() {
  return (
    <Card className="max-w-2xl p-5 sm:p-6" data-testid="paper-notice">
      <p className="flex items-center gap-2 text-base font-semibold text-fg">
        <CheckCircleIcon className="size-5 shrink-0 text-up" />
        Paper trading: no API key needed
      </p>
      <p className="mt-2 text-sm text-muted">
        This platform trades on a paper exchange. Your account got its own paper wallet when you signed up,
        funded with simulated USDT, and your bots trade on it at live market prices. No real money moves and
        no exchange keys are asked for.
      </p>
      <p className="mt-2 text-sm text-muted">
        API keys are only used when the platform is set up to trade on {keyExchangeList()}.
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Link to="/startbot" className={buttonClasses('primary')}>
          Start a bot
        </Link>
        <Link to="/mywallet" className={buttonClasses('secondary')}>
          Open the wallet
        </Link>
      </div>
    </Card>
  );
}

/** docs/spec/01-core-screens.md API Setting: the connection on the left, the key form on the right (stacked on phones). */
export function ApiSettingPanel() {
  const [confirming, setConfirming] = useState(false);
  const stored = useStoredApiKey();
  const connection = useConnectionStatus();

  if (connection.data?.keysRequired === false) return <PaperNotice />;
  return (
    <div className="grid items-start gap-6 lg:grid-cols-2">
      <ConnectionCard onDisconnect={() => setConfirming(true)} />
      <ApiKeysForm replacing={Boolean(stored.data?.apiKey)} exchange={stored.data?.exchange ?? 'binance'} />
      <DisconnectDialog open={confirming} onClose={() => setConfirming(false)} />
    </div>
  );
}
