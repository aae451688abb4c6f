import { Card } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';
import { ContactForm } from '../../features/contact/components/contact-form';
import { useAccountEmail } from '../../features/shell/api/account-email';

const ANSWERS = [
  {
    q: 'How do I start my first bot?',
    a: 'Pick a system strategy or create your own under Multigrid or Scalping, then open Start BOT. The form tells you up front if anything blocks the start.',
  },
  {
    q: 'Why is less USDT transferable than my wallet holds?',
    a: 'A running bot keeps its unspent investment (with its fees) and the coins it bought. The Wallet lists what each bot holds; stop a bot to free its share.',
  },
  {
    q: 'Why does my strategy lose money on small moves?',
    a: 'Every buy and sell pays a fee (0.1 % each on spot, 0.05 % on futures). A take-profit below the round-trip fee loses on every trade; the editors warn about it.',
  },
];

/** Help for signed-in members: short answers and a message to the team, inside the app. */
export default function HelpRoute() {
  const account = useAccountEmail();
  return (
    <>
      <PageHeader title="Help" description="Answers to common questions, and a message to our team." />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Card className="p-5 sm:p-6">
          <h2 className="text-base font-semibold text-fg">Common questions</h2>
          <dl className="mt-3 space-y-4">
            {ANSWERS.map((item) => (
              <div key={item.q}>
                <dt className="font-semibold text-fg">{item.q}</dt>
                <dd className="mt-1 text-sm text-muted">{item.a}</dd>
              </div>
            ))}
          </dl>
        </Card>
        <Card className="p-5 sm:p-6">
          <h2 className="mb-4 text-base font-semibold text-fg">Contact us</h2>
          <ContactForm member={{ name: account.data?.username ?? '', email: account.data?.email ?? '' }} />
        </Card>
      </div>
    </>
  );
}
