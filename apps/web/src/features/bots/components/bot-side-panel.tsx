import type { BotSummary, ProtectionValues, SltpValues } from '@gridbot/shared';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { formatDateTime, formatPair, formatPrice } from '../../../lib/format';
import type { BotKind } from '../api/bot-paths';
import { formatLimit, formatUsd, pnlTone, toNumber } from '../lib/bot-format';
import { PanelRow } from './bot-parts';

interface BotSidePanelProps {
  kind: BotKind;
  bot: BotSummary;
  sltp: SltpValues | undefined;
  protection: ProtectionValues | undefined;
  profitBookAt: number | string | null | undefined;
  /** Future bots only; undefined hides the row. */
  liquidation: number | null | undefined;
  editable: boolean;
  onEditSltp: () => void;
  onEditOverbuy: () => void;
  onEditProfitBook: () => void;
  onStop?: () => void;
  /** A running bot takes more funds; undefined hides the button. */
  onAddFunds?: () => void;
}

/** docs/spec/02-bots-wallet-account.md side panel: money, pair, start date, the price limits and protections with edit icons. */
export function BotSidePanel(props: BotSidePanelProps) {
  const { kind, bot, sltp, protection, profitBookAt, liquidation, editable } = props;
  const edit = (fn: () => void) => (editable ? fn : undefined);
  const pause = sltp?.sell_all_and_pause_at_price ?? bot.sell_all_and_pause_at_price;
  const restart = sltp?.restart_at_price ?? bot.restart_at_price;
  const stoploss = sltp?.stoploss_and_stopbot_at_price ?? bot.stoploss_and_stopbot_at_price;
  const active = protection?.is_protection_active ?? bot.is_protection_active;
  const grid = protection?.protection_grid_at ?? bot.overbuy_protection_value;
  const profitBook = toNumber(profitBookAt ?? bot.profitbookat);
  const booked = toNumber(bot.pnl) ?? 0;
  return (
    <Card className="h-fit p-4 sm:p-5 xl:sticky xl:top-24">
      <h2 className="text-base font-semibold text-fg">Bot details</h2>
      <dl className="mt-2 divide-y divide-line">
        <PanelRow label="Total Investment" value={formatUsd(bot.investment)} />
        <PanelRow
          label={kind === 'scalping' ? 'Total Profit' : 'Booked Orders'}
          value={formatUsd(booked)}
          tone={pnlTone(booked)}
        />
        <PanelRow label="Pair" value={formatPair(bot.name)} />
        <PanelRow label="Start Date" value={formatDateTime(bot.botstartdate)} />
        <PanelRow label="Pause Price" value={formatLimit(pause)} onEdit={edit(props.onEditSltp)} />
        <PanelRow label="Restart Price" value={formatLimit(restart)} onEdit={edit(props.onEditSltp)} />
        <PanelRow label="Stoploss Price" value={formatLimit(stoploss)} onEdit={edit(props.onEditSltp)} />
        {liquidation !== undefined ? (
          <PanelRow
            label={kind === 'scalping' ? 'Liq.Price' : 'Liquidation Price'}
            value={liquidation === null ? '—' : formatPrice(liquidation)}
            tone="text-down"
          />
        ) : null}
        {kind === 'multigrid' ? (
          <>
            <PanelRow
              label="Overbuy Protection"
              value={active && grid ? `Grid ${grid}` : 'Not set'}
              onEdit={edit(props.onEditOverbuy)}
            />
            <PanelRow
              label="Profit book & stop at"
              value={profitBook === null ? 'Not set' : `${profitBook}%`}
              onEdit={edit(props.onEditProfitBook)}
            />
          </>
        ) : null}
      </dl>
      {props.onAddFunds ? (
        <Button variant="outline" fullWidth className="mt-4" onClick={props.onAddFunds}>
          Add funds
        </Button>
      ) : null}
      {props.onStop ? (
        <Button
          variant="danger"
          fullWidth
          className={props.onAddFunds ? 'mt-2' : 'mt-4'}
          onClick={props.onStop}
        >
          Stop Bot
        </Button>
      ) : null}
    </Card>
  );
}
