import { Dashboard } from '../../features/dashboard/components/dashboard';
import { useDisclaimerGate } from '../../features/disclaimer/api/disclaimer';
import { DisclaimerModal } from '../../features/disclaimer/components/disclaimer-modal';
import { BotStopsNotice } from '../../features/notifications/components/bot-stops-notice';
import { PositionsPanel } from '../../features/wallet/components/positions-panel';

/**
 * docs/spec/01-core-screens.md Dashboard. The disclaimer blocks it until agreed, and its refresh waits while the dialog is open.
 * Bots that stopped by themselves are named above the funds until dismissed (a stopped bot has no card).
 * Open futures positions follow it (none: nothing shown), since a position can outlive the bot that opened it.
 */
export default function DashboardRoute() {
  const { open, checking } = useDisclaimerGate();
  return (
    <>
      <Dashboard paused={open || checking} notices={<BotStopsNotice />} />
      <div className="mt-6 empty:hidden">
        <PositionsPanel compact />
      </div>
      <DisclaimerModal />
    </>
  );
}
