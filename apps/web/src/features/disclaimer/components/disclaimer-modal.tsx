import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { toast } from '../../../lib/toast';
import { useAgreeDisclaimer, useDisclaimerGate } from '../api/disclaimer';

const sections = [
  {
    title: 'Welcome to GridBot',
    text: 'GridBot gives you tools to design grid strategies and run them as bots on your own exchange account. We provide strategy-creation tools only: we do not hold your funds, give investment advice or trade outside the rules you set.',
  },
  {
    title: 'P&L Disclaimer',
    text: 'Profits are not guaranteed. Profit, ROI and APY figures, including back-tests and the results of other users’ bots, are estimates of past behaviour and do not predict future results. You can lose part or all of the funds a bot trades with.',
  },
  {
    title: 'Risk Acknowledgment',
    text: 'Crypto assets are highly volatile. Futures trading with leverage can end in liquidation and the loss of the whole margin. Strategies run on third-party trading platforms at your own risk; outages, API errors and price gaps there are outside our control.',
  },
  {
    title: 'Due Diligence Requirement',
    text: 'Check every strategy, pair, amount and price limit before you start a bot, keep your API keys safe, and trade only with money you can afford to lose. If in doubt, seek independent financial advice.',
  },
] as const;

/** docs/spec/01-core-screens.md Disclaimer popup: blocks the dashboard until the user agrees (the server records it). */
export function DisclaimerModal() {
  const { open } = useDisclaimerGate();
  const agree = useAgreeDisclaimer();

  const onAgree = () =>
    agree.mutate(undefined, {
      onError: () => {
        toast.error('Could not save your agreement. Please try again.');
      },
    });

  return (
    <Modal
      open={open}
      title="Disclaimer"
      size="lg"
      footer={
        <Button onClick={onAgree} loading={agree.isPending} className="min-w-32">
          Agree
        </Button>
      }
    >
      <div className="space-y-5 text-sm leading-relaxed text-muted">
        {sections.map((section) => (
          <section key={section.title}>
            <h3 className="mb-1 font-semibold text-fg">{section.title}</h3>
            <p>{section.text}</p>
          </section>
        ))}
        <p className="rounded-lg border border-primary/25 bg-primary-soft p-3 font-medium text-fg">
          By clicking Agree, you confirm that you have read and understood this disclaimer and accept full
          responsibility for your trading decisions.
        </p>
      </div>
    </Modal>
  );
}
