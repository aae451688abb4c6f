import { PageHeader } from '../../components/ui/page-header';
import { ApiSettingPanel } from '../../features/api-keys/components/api-setting-panel';
import { keyExchangeList } from '../../features/api-keys/lib/exchange-names';

export default function ApiSettingRoute() {
  return (
    <>
      <PageHeader
        title="API Setting"
        description={`Where your bots trade: on ${keyExchangeList()} with your own API keys, or on this install's paper exchange.`}
      />
      <ApiSettingPanel />
    </>
  );
}
