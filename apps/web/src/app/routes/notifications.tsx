import { PageHeader } from '../../components/ui/page-header';
import { NotificationSettingsPanel } from '../../features/notifications/components/notification-settings-panel';

export default function NotificationsRoute() {
  return (
    <>
      <PageHeader
        title="Notifications"
        description="Hear about stops, pauses, completed cycles and your wallet when GridBot is not open."
      />
      <NotificationSettingsPanel />
    </>
  );
}
