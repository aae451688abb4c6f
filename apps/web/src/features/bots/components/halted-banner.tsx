import { botMessages, isMissingCoinsHalt, type MissingLotsChoice } from '@gridbot/shared';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { AlertIcon } from '../../../components/ui/icons';
import { MissingLotsDialog } from '../../../components/ui/missing-lots-dialog';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import type { BotKind } from '../api/bot-paths';
import { useResumeBot } from '../api/running-bot';

/**
 * A bot the runtime paused (keys missing, orders failing): why, and a way to let it trade again once the
 * cause is fixed (coins sold outside the platform: after choosing what to do about them). The server refuses while the keys are still missing, with the message saying where to bind them.
 */
export function HaltedBanner({
  kind,
  id,
  reason,
  canResume,
}: {
  kind: BotKind;
  id: string;
  reason: string;
  /** False once the bot is stopped: the reason stays for reference. */
  canResume: boolean;
}) {
  const resume = useResumeBot(kind, id);
  // Coins sold outside the platform: Resume first asks whether to re-buy them or drop the missing lots.
  const missingCoins = isMissingCoinsHalt(reason);
  const [choosing, setChoosing] = useState(false);
  const send = (missingLots?: MissingLotsChoice) =>
    resume.mutate(missingLots, {
      onSuccess: (answer) => {
        setChoosing(false);
        toast.success(answer.message || botMessages.resumed);
      },
      // While the choice is open the dialog shows the refusal; a toast would cover its buttons on a phone.
      onError: (error) => {
        if (!missingLots) toast.error(errorMessage(error, botMessages.noResponse));
      },
    });
  const onResume = () => (missingCoins ? setChoosing(true) : send());
  return (
    <div
      role="alert"
      className="flex flex-wrap items-start gap-3 rounded-xl border border-warn/40 bg-warn/10 p-4 text-sm"
    >
      <AlertIcon className="mt-0.5 size-5 shrink-0 text-warn" />
      <div className="min-w-0 flex-1 basis-64">
        <p className="font-semibold text-fg">The bot was paused by the system</p>
        <p className="mt-0.5 text-muted">{reason}</p>
      </div>
      {canResume ? (
        <Button variant="outline" size="sm" loading={resume.isPending} onClick={onResume}>
          Resume trading
        </Button>
      ) : null}
      {missingCoins ? (
        <MissingLotsDialog
          open={choosing}
          onClose={() => setChoosing(false)}
          reason={reason}
          busy={resume.isPending}
          error={resume.isError ? errorMessage(resume.error, botMessages.noResponse) : null}
          onConfirm={send}
        />
      ) : null}
    </div>
  );
}
