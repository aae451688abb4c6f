import { PageHeader } from '../../components/ui/page-header';
import { ApiSettingPanel } from '../../features/api-keys/components/api-setting-panel';

export default function ApiSettingRoute() {
  return (
    <>
      <PageHeader
        title="API Setting"
        description="Connect your exchange account so GridBot can read balances and trade for your bots."
      />
      <ApiSettingPanel />
    </>
  );
}
