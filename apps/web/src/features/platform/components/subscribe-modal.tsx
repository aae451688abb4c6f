import { platformMessages as m, type SessionUser, type SubscriptionPlan } from '@gridbot/shared';
import { clsx } from 'clsx';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { AlertIcon } from '../../../components/ui/icons';
import { Modal } from '../../../components/ui/modal';
import { toast } from '../../../lib/toast';
import { platformErrorMessage } from '../api/platform-client';
import { useSubscribe } from '../api/platform-queries';
import { formatAmount } from '../lib/platform-format';
import { priceLines } from './plan-price';

interface SubscribeModalProps {
  plan: SubscriptionPlan | null;
  account: SessionUser;
  onAccountChanged: () => void;
  onClose: () => void;
}

/** Confirms a purchase: what each wallet pays, and says plainly when one of them holds too little. */
export function SubscribeModal({ plan, account, onAccountChanged, onClose }: SubscribeModalProps) {
  const subscribe = useSubscribe(onAccountChanged);
  const lines = plan ? priceLines(plan, account) : [];
  const short = lines.filter((line) => line.short);

  const confirm = async () => {
    if (!plan) return;
    try {
      const { msg } = await subscribe.mutateAsync(plan.id);
      toast.success(msg || m.subscribed);
      onClose();
    } catch (error) {
      toast.error(platformErrorMessage(error, 'Subscription failed. Please try again.'));
    }
  };

  return (
    <Modal
      open={plan !== null}
      onClose={subscribe.isPending ? undefined : onClose}
      title="Confirm Subscription"
      description={plan ? `Subscribe to ${plan.name}?` : undefined}
      size="sm"
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={subscribe.isPending}>
            Cancel
          </Button>
          <Button onClick={() => void confirm()} loading={subscribe.isPending} disabled={short.length > 0}>
            {subscribe.isPending ? 'Subscribing...' : 'Confirm'}
          </Button>
        </>
      }
    >
      {plan ? (
        <div className="space-y-4 text-sm">
          <dl className="divide-y divide-line rounded-lg border border-line">
            {lines.map((line) => (
              <div key={line.token} className="flex items-center justify-between gap-3 px-3 py-2.5">
                <dt className="text-muted">
                  {line.token} price
                  <span className="block text-xs">wallet: {formatAmount(line.balance)}</span>
                </dt>
                <dd className={clsx('font-semibold tabular-nums', line.short ? 'text-down' : 'text-fg')}>
                  {formatAmount(line.price)} {line.token}
                </dd>
              </div>
            ))}
            <div className="flex items-center justify-between gap-3 px-3 py-2.5">
              <dt className="text-muted">Profit limit granted</dt>
              <dd className="font-semibold text-up tabular-nums">${formatAmount(plan.availableCredit)}</dd>
            </div>
          </dl>
          {short.length > 0 ? (
            <div role="alert" className="space-y-1.5 rounded-lg bg-down/10 px-3 py-2.5 text-down">
              {short.map((line) => (
                <p key={line.token} className="flex gap-2">
                  <AlertIcon className="mt-0.5 size-4 shrink-0" />
                  {m.insufficientBalance(line.token, formatAmount(line.price), formatAmount(line.balance))}
                </p>
              ))}
              <Link
                to="/Wallet-deposit"
                onClick={onClose}
                className="ml-6 inline-block font-semibold underline"
              >
                Go to Wallet Deposit
              </Link>
            </div>
          ) : null}
        </div>
      ) : null}
    </Modal>
  );
}
