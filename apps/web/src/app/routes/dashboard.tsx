import { Dashboard } from '../../features/dashboard/components/dashboard';
import { useDisclaimerGate } from '../../features/disclaimer/api/disclaimer';
import { DisclaimerModal } from '../../features/disclaimer/components/disclaimer-modal';

/** docs/spec/01-core-screens.md Dashboard. The disclaimer blocks it until agreed, and its refresh waits while the dialog is open. */
export default function DashboardRoute() {
  const { open, checking } = useDisclaimerGate();
  return (
    <>
      <Dashboard paused={open || checking} />
      <DisclaimerModal />
    </>
  );
}
