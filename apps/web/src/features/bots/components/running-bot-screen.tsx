import {
  type BotInfo,
  type BotPosition,
  type BotSummary,
  botMessages,
  botReasonOf,
  type OrderBookPage,
  type ProtectionValues,
  type PurchasedQty,
  type SltpValues,
} from '@gridbot/shared';
import { memo, useDeferredValue, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { AlertIcon, ArrowLeftIcon } from '../../../components/ui/icons';
import { Skeleton } from '../../../components/ui/skeleton';
import { isApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import type { BotKind } from '../api/bot-paths';
import {
  useBotInfo,
  useOrderBook,
  usePosition,
  useProfitBookAt,
  useProtection,
  usePurchasedQty,
  useResumePausedBot,
  useSltp,
  useStopBot,
} from '../api/running-bot';
import { toNumber } from '../lib/bot-format';
import { AddFundsDialog } from './add-funds-dialog';
import { BotChart, type RenderBotCandles } from './bot-chart';
import { BotHeader } from './bot-header';
import { BotSidePanel } from './bot-side-panel';
import { BotStats } from './bot-stats';
import { DustNote } from './dust-note';
import { HaltedBanner } from './halted-banner';
import { OrderBook } from './order-book';
import { OverbuyDialog } from './overbuy-dialog';
import { ProfitBookDialog } from './profit-book-dialog';
import { ProfitChart } from './profit-chart';
import { ReasonBanner } from './reason-banner';
import { ResumePausedDialog } from './resume-paused-dialog';
import { SkippedBuyBanner } from './skipped-buy-banner';
import { SltpDialog } from './sltp-dialog';
import { StopBotDialog } from './stop-bot-dialog';

type Dialog = 'stop' | 'sltp' | 'overbuy' | 'profitbook' | 'resume' | 'funds' | null;

function Loading() {
  return (
    <div className="space-y-6" aria-busy="true">
      <span role="status" className="sr-only">
        Loading bot
      </span>
      <Skeleton className="h-24 w-full rounded-xl" />
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {Array.from({ length: 8 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
          <Skeleton key={i} className="h-20 rounded-xl" />
        ))}
      </div>
      <Skeleton className="h-72 w-full rounded-xl" />
    </div>
  );
}

/** The approximate PnL if sold now: booked plus what is held at the current price. */
function approxPnl(bot: BotSummary, purchased: PurchasedQty | undefined): number | null {
  return toNumber(purchased?.totalpnl) ?? toNumber(bot.totalPnl);
}

/** docs/spec/02-bots-wallet-account.md Running multigrid bot and Running scalping bot: one screen, two kinds. */
export function RunningBotScreen({
  kind,
  id,
  renderCandles,
}: {
  kind: BotKind;
  id: string;
  /** The pair's candles under the bot's levels (app/ gives the market chart; without it the levels show as text). */
  renderCandles?: RenderBotCandles;
}) {
  const [page, setPage] = useState(1);
  const info = useBotInfo(kind, id);
  const found = info.data !== undefined;
  const future = info.data?.category === 'Future';
  const orders = useOrderBook(kind, id, page, found);
  const purchased = usePurchasedQty(kind, id, found);
  const position = usePosition(kind, id, found && future);
  const sltp = useSltp(id, info.data, found);
  const protection = useProtection(id, found && kind === 'multigrid');
  const profitBook = useProfitBookAt(id, found && kind === 'multigrid');
  // The answers arrive one by one, and a query's update renders at once, in one piece: each would redraw the
  // whole page in one long task. The page draws from deferred copies instead, which React renders in slices
  // between which the browser stays responsive; this component alone renders at each answer.
  const bot = useDeferredValue(info.data);
  const view: BotView = {
    orders: useDeferredValue(orders.data),
    ordersLoading: useDeferredValue(orders.isPending),
    purchased: useDeferredValue(purchased.data),
    position: useDeferredValue(position.data),
    sltp: useDeferredValue(sltp.data),
    protection: useDeferredValue(protection.data),
    profitBookAt: useDeferredValue(profitBook.data?.profitbookat),
  };

  if (!bot && (info.isPending || info.data)) return <Loading />;
  if (!bot) {
    const missing = isApiError(info.error) && info.error.status === 404;
    return (
      <EmptyState
        icon={<AlertIcon />}
        title={missing ? 'Bot not found' : 'Could not load this bot'}
        description={
          missing
            ? 'This bot does not exist or belongs to another account.'
            : 'Check your connection and try again.'
        }
        action={
          missing ? (
            <Link to="/dashboard" className={buttonClasses('primary')}>
              Go to Dashboard
            </Link>
          ) : (
            <Button onClick={() => void info.refetch()}>Retry</Button>
          )
        }
      />
    );
  }
  return (
    <BotPage
      kind={kind}
      id={id}
      bot={bot}
      page={page}
      onPageChange={setPage}
      renderCandles={renderCandles}
      {...view}
    />
  );
}

/** What the page shows besides the bot: each query's last answer (undefined until it has come). */
interface BotView {
  orders: OrderBookPage | undefined;
  ordersLoading: boolean;
  purchased: PurchasedQty | undefined;
  position: BotPosition | undefined;
  sltp: SltpValues | undefined;
  protection: ProtectionValues | undefined;
  profitBookAt: number | string | null | undefined;
}

interface BotPageProps extends BotView {
  kind: BotKind;
  id: string;
  bot: BotInfo;
  page: number;
  onPageChange: (page: number) => void;
  renderCandles: RenderBotCandles | undefined;
}

const BotPage = memo(function BotPage(props: BotPageProps) {
  const { kind, id, bot, page, onPageChange, orders, ordersLoading, purchased, position, sltp, protection } =
    props;
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [stopping, setStopping] = useState<'sell' | 'stop' | null>(null);
  const stop = useStopBot(kind, id);
  const resume = useResumePausedBot(kind, id);
  const future = bot.category === 'Future';

  // A Stopping bot's final sale is under way: it takes no edits and no second stop.
  const running = bot.status === 'Live' || bot.status === 'Pause';
  const onStop = (sell: boolean) => {
    setStopping(sell ? 'sell' : 'stop');
    stop.mutate(
      { sell, botData: bot, totalPnl: approxPnl(bot, purchased) ?? 0 },
      {
        onSuccess: (answer) => {
          setDialog(null);
          if (answer.stopping) {
            toast.info(answer.message);
            return;
          }
          toast.success(sell ? botMessages.stoppedSold : botMessages.stopped);
          void navigate('/dashboard');
        },
        onError: (error) => {
          const fallback = sell ? botMessages.stopSellFailed : botMessages.stopFailed;
          // A refused sale comes with the exchange's reason after the spec's words.
          toast.error(isApiError(error) && error.fromServer ? error.message : fallback);
        },
        onSettled: () => setStopping(null),
      },
    );
  };

  const onResume = () => {
    resume.mutate(undefined, {
      onSuccess: (answer) => {
        setDialog(null);
        toast.success(answer.message);
      },
      onError: (error) => {
        toast.error(isApiError(error) && error.fromServer ? error.message : botMessages.resumeFailed);
      },
    });
  };

  const liquidation = toNumber(position?.liquidationPrice) ?? toNumber(bot.liquidationPrice);
  const reason = bot.haltReason && bot.status !== 'Stopped' ? null : botReasonOf(reasonInput(bot));

  return (
    <div className="space-y-5">
      <Link
        to="/dashboard"
        className="inline-flex items-center gap-1.5 text-sm font-medium text-muted hover:text-fg"
      >
        <ArrowLeftIcon className="size-4" /> Dashboard
      </Link>
      <BotHeader kind={kind} bot={bot} onStop={running ? () => setDialog('stop') : undefined} />
      {bot.haltReason && bot.status !== 'Stopped' ? (
        <HaltedBanner kind={kind} id={id} reason={bot.haltReason} canResume />
      ) : null}
      {reason ? (
        <ReasonBanner
          reason={reason}
          onEditLimits={() => setDialog('sltp')}
          onResume={bot.status === 'Pause' ? () => setDialog('resume') : undefined}
        />
      ) : null}
      {running && bot.skippedBuy ? <SkippedBuyBanner skipped={bot.skippedBuy} future={future} /> : null}
      {bot.dust ? <DustNote dust={bot.dust} /> : null}
      {bot.status === 'Stopping' ? (
        <div role="status" className="rounded-xl border border-warn/40 bg-warn/10 p-4 text-sm text-fg">
          This bot is stopping: its final sale is under way. It stops once the sale is filled and booked.
        </div>
      ) : null}
      {bot.status === 'Stopped' ? (
        <div className="rounded-xl border border-line bg-surface-2 p-4 text-sm text-muted">
          This bot has stopped. It takes no new trades; its orders stay below for reference.
        </div>
      ) : null}
      <div className="grid grid-cols-1 gap-5 xl:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-5">
          <BotStats kind={kind} bot={bot} purchased={purchased} />
          <BotChart bot={bot} orders={orders?.orders} renderCandles={props.renderCandles} />
          <ProfitChart datewiseprofit={bot.datewiseprofit ?? {}} />
        </div>
        <BotSidePanel
          kind={kind}
          bot={bot}
          sltp={sltp}
          protection={protection}
          profitBookAt={props.profitBookAt}
          liquidation={future ? liquidation : undefined}
          editable={running}
          onEditSltp={() => setDialog('sltp')}
          onEditOverbuy={() => setDialog('overbuy')}
          onEditProfitBook={() => setDialog('profitbook')}
          onStop={running ? () => setDialog('stop') : undefined}
          onAddFunds={running ? () => setDialog('funds') : undefined}
        />
      </div>
      {/* Across the page, below the details: beside them the table's columns would not fit on a laptop screen. */}
      <OrderBook
        bot={{ id: bot.id, name: bot.name }}
        data={orders}
        loading={ordersLoading}
        page={page}
        onPageChange={onPageChange}
      />
      <StopBotDialog
        open={dialog === 'stop'}
        onClose={() => setDialog(null)}
        pair={bot.name}
        category={bot.category}
        approxPnl={approxPnl(bot, purchased)}
        pending={stopping}
        onStop={onStop}
      />
      <ResumePausedDialog
        open={dialog === 'resume'}
        onClose={() => setDialog(null)}
        pair={bot.name}
        livePrice={bot.liveprice}
        pausePrice={sltp?.sell_all_and_pause_at_price ?? bot.sell_all_and_pause_at_price}
        restartPrice={sltp?.restart_at_price ?? bot.restart_at_price}
        pending={resume.isPending}
        onResume={onResume}
      />
      <AddFundsDialog
        open={dialog === 'funds'}
        onClose={() => setDialog(null)}
        kind={kind}
        botId={id}
        category={bot.category}
        investment={bot.investment}
      />
      <SltpDialog
        open={dialog === 'sltp'}
        onClose={() => setDialog(null)}
        kind={kind}
        botId={id}
        sltp={sltp ?? fallbackSltp(bot)}
      />
      {kind === 'multigrid' ? (
        <>
          <OverbuyDialog
            open={dialog === 'overbuy'}
            onClose={() => setDialog(null)}
            kind={kind}
            botId={id}
            protection={protection}
            totalGrids={bot.total_grid}
          />
          <ProfitBookDialog
            open={dialog === 'profitbook'}
            onClose={() => setDialog(null)}
            kind={kind}
            botId={id}
            current={props.profitBookAt ?? bot.profitbookat}
          />
        </>
      ) : null}
    </div>
  );
});

/** Until /api/sltp answers, the summary's own price settings stand in. */
function fallbackSltp(bot: BotSummary) {
  return {
    sell_all_and_pause_at_price: bot.sell_all_and_pause_at_price,
    restart_at_price: bot.restart_at_price,
    stoploss_and_stopbot_at_price: bot.stoploss_and_stopbot_at_price,
    liveprice: bot.liveprice,
  };
}

/** What `botReasonOf` reads from the bot's summary. */
function reasonInput(bot: BotSummary) {
  return {
    status: bot.status,
    haltReason: bot.haltReason,
    stopReason: bot.stopReason ?? null,
    pausePrice: toNumber(bot.sell_all_and_pause_at_price),
    restartPrice: toNumber(bot.restart_at_price),
  };
}
