import {
  addFundsInputSchema,
  type BotActionAnswer,
  type BotPosition,
  botApiPaths,
  botFillsCsvQuerySchema,
  botIdInputSchema,
  botKindApiPaths,
  botKindOf,
  copyBotInputSchema,
  DEFAULT_MINIMUM_BOT_AMOUNT,
  firstTriggerError,
  historyCsvQuerySchema,
  historyRowMatches,
  botMessages as m,
  overbuyGridError,
  overbuyInputSchema,
  type ProfitBookAt,
  type ProtectionValues,
  profitBookInputSchema,
  resumeBotInputSchema,
  type SltpValues,
  sltpEditInputSchema,
  startBotInputSchema,
  topBotsQuerySchema,
  triggerVsLivePriceErrors,
} from '@gridbot/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app/deps';
import { HttpError } from '../../lib/http-error';
import { currentUser, requireUser } from '../../plugins/auth';
import { userVenueName } from '../exchange';
import { addFundsToBot } from './add-funds.service';
import { assertRunning, runningBotOf, sendBotCommand } from './bot-commands.service';
import { gridState, priceOf } from './bot-summary';
import * as read from './bots.read';
import { fillsOf, findUserBot } from './bots.repo';
import { fillsCsv } from './fills-export';
import { resumeBot, resumePausedBot } from './resume-bot.service';
import { startBot } from './start-bot.service';
import { startReadiness } from './start-readiness.service';

function sendCsv(reply: FastifyReply, filename: string, body: string) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

const startCheckQuerySchema = z.object({
  category: z.enum(['Spot', 'Future']).default('Spot'),
  pair: z
    .string()
    .max(20)
    .optional()
    .transform((v) => v?.toUpperCase().replace('/', '') || undefined),
  botType: z
    .string()
    .max(20)
    .optional()
    .transform((v) => (v === undefined || v === '' ? undefined : botKindOf(v))),
  strategy: z.string().max(64).optional(),
});

const orderBookInputSchema = z.looseObject({
  botID: z.string().trim().min(1, m.botNotFound).max(64),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

/** Start, watch, edit and stop bots (docs/spec/01-core-screens.md Start bot, Dashboard, History, Copy BOTs; docs/spec/02-bots-wallet-account.md §7). */
export async function botRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { onRequest: requireUser(deps) };
  const withBody = <T extends z.ZodType>(body: T) => ({ ...guard, schema: { body } });

  r.get(botApiPaths.minimumAmount, guard, async () => ({ minimumBotAmount: DEFAULT_MINIMUM_BOT_AMOUNT }));

  // What blocks a start with these choices, before the form is filled in.
  r.get(botApiPaths.startCheck, { ...guard, schema: { querystring: startCheckQuerySchema } }, async (req) =>
    startReadiness(deps, currentUser(req).id, req.query),
  );

  for (const type of ['multigrid', 'scalping'] as const) {
    const paths = botKindApiPaths[type];
    r.post(paths.start, withBody(startBotInputSchema), async (req) =>
      startBot(deps, currentUser(req).id, type, req.body),
    );
    r.get(paths.status, guard, async (req) => ({
      bots: await read.runningSummaries(deps, currentUser(req).id, type),
    }));
    r.get(paths.pieChart, guard, async (req) => read.pieChart(deps, currentUser(req).id, type));
    r.get(paths.history, guard, async (req) => ({
      rows: await read.history(deps, currentUser(req).id, type),
    }));

    r.post(paths.info, withBody(botIdInputSchema), async (req) => {
      const userId = currentUser(req).id;
      const bot = await runningBotOf(deps, userId, req.body.botID, type);
      return { ...(await read.summaryOf(deps, bot)), exchange: await userVenueName(deps, userId) };
    });
    r.post(paths.orderBook, withBody(orderBookInputSchema), async (req) => {
      const bot = await runningBotOf(deps, currentUser(req).id, req.body.botID, type);
      return read.orderBook(deps, bot, req.body.page);
    });
    r.post(paths.purchasedQty, withBody(botIdInputSchema), async (req) => {
      const bot = await runningBotOf(deps, currentUser(req).id, req.body.botID, type);
      return read.purchased(deps, bot);
    });
    r.post(paths.position, withBody(botIdInputSchema), async (req): Promise<BotPosition> => {
      const bot = await runningBotOf(deps, currentUser(req).id, req.body.botID, type);
      return { liquidationPrice: read.summaryStats(deps, bot).liquidationPrice };
    });
    // 202 while the re-buy of coins sold outside the platform that the user chose is still being filled.
    r.post(paths.resume, withBody(resumeBotInputSchema), async (req, reply) => {
      const bot = await runningBotOf(deps, currentUser(req).id, req.body.botID, type);
      const answer = await resumeBot(deps, bot, req.body.missingLots);
      if (answer.resuming) reply.code(202);
      return answer;
    });
    // A bot its pause price paused: Live again at once, buying grid 1 at the market price.
    r.post(paths.resumePaused, withBody(botIdInputSchema), async (req) => {
      const bot = await runningBotOf(deps, currentUser(req).id, req.body.botID, type);
      return resumePausedBot(deps, bot);
    });
    r.post(paths.addFunds, withBody(addFundsInputSchema), async (req) => {
      const bot = await runningBotOf(deps, currentUser(req).id, req.body.botID, type);
      return addFundsToBot(deps, bot, req.body.amount);
    });
    r.post(paths.stop, withBody(botIdInputSchema), async (req): Promise<BotActionAnswer> => {
      const bot = await runningBotOf(deps, currentUser(req).id, req.body.botID, type);
      assertRunning(bot);
      await sendBotCommand(deps, bot.id, { type: 'stop' }, m.stopFailed);
      return { success: true, message: m.stopped };
    });
    // "Stopped and sold" only once the sale is filled and booked; 202 "stop requested" while it is under way.
    r.post(paths.stopWithSell, withBody(botIdInputSchema), async (req, reply): Promise<BotActionAnswer> => {
      const bot = await runningBotOf(deps, currentUser(req).id, req.body.botID, type);
      assertRunning(bot);
      const outcome = await sendBotCommand(deps, bot.id, { type: 'stop_sell' }, m.stopSellFailed);
      if (outcome === 'done') return { success: true, message: m.stoppedSold };
      reply.code(202);
      return { success: true, stopping: true, message: m.stopRequested };
    });
  }

  const anyBot = async (userId: string, botId: string) => {
    const bot = await findUserBot(deps.db, userId, botId);
    if (!bot) throw new HttpError(404, m.botNotFound);
    return bot;
  };

  r.post(botApiPaths.sltp, withBody(botIdInputSchema), async (req): Promise<SltpValues> => {
    const bot = await anyBot(currentUser(req).id, req.body.botID);
    const s = gridState(bot).settings;
    return {
      sell_all_and_pause_at_price: s.pausePrice,
      restart_at_price: s.restartPrice,
      stoploss_and_stopbot_at_price: s.stoplossPrice,
      liveprice: priceOf(bot, deps.feed),
    };
  });

  r.post(botApiPaths.sltpEdit, withBody(sltpEditInputSchema), async (req): Promise<BotActionAnswer> => {
    const bot = await anyBot(currentUser(req).id, req.body.botID);
    assertRunning(bot);
    const { sellAllAndPausePrice: pause, restartPrice: restart, stoplossPrice: stoploss } = req.body;
    const problem = firstTriggerError(
      triggerVsLivePriceErrors({ pause, restart, stoploss }, priceOf(bot, deps.feed)),
    );
    if (problem) throw new HttpError(400, problem);
    const reset = pause === null && restart === null && stoploss === null;
    await sendBotCommand(
      deps,
      bot.id,
      { type: 'sltp', pausePrice: pause, restartPrice: restart, stoplossPrice: stoploss },
      reset ? m.sltpResetFailed : m.sltpUpdateFailed,
    );
    return { success: true, message: reset ? m.sltpReset : m.sltpUpdated };
  });

  r.post(botApiPaths.overbuy, withBody(botIdInputSchema), async (req): Promise<ProtectionValues> => {
    const bot = await anyBot(currentUser(req).id, req.body.botID);
    const state = gridState(bot);
    return {
      is_protection_active: state.settings.overbuy.active,
      protection_grid_at: state.settings.overbuy.value,
      total_grid: state.params.grids,
    };
  });

  r.post(botApiPaths.overbuyEdit, withBody(overbuyInputSchema), async (req): Promise<BotActionAnswer> => {
    const bot = await anyBot(currentUser(req).id, req.body.botID);
    assertRunning(bot);
    const grids = gridState(bot).params.grids;
    const raw = req.body.overbuyProtectionValue;
    const reset = !req.body.protectionActive || raw === null || raw === undefined || raw === '';
    let value: number | null = null;
    if (!reset) {
      const problem = overbuyGridError(raw, grids);
      if (problem) throw new HttpError(400, problem);
      value = Number(raw);
    }
    await sendBotCommand(deps, bot.id, { type: 'overbuy', active: !reset, value }, m.overbuyFailed);
    return { success: true, message: reset ? m.overbuyReset : m.overbuySaved };
  });

  r.post(botApiPaths.profitBook, withBody(botIdInputSchema), async (req): Promise<ProfitBookAt> => {
    const bot = await anyBot(currentUser(req).id, req.body.botID);
    return { profitbookat: gridState(bot).settings.profitBookPct };
  });

  r.post(
    botApiPaths.profitBookEdit,
    withBody(profitBookInputSchema),
    async (req): Promise<BotActionAnswer> => {
      const bot = await anyBot(currentUser(req).id, req.body.botID);
      assertRunning(bot);
      const pct = req.body.profitBookValue;
      await sendBotCommand(deps, bot.id, { type: 'profit_book', pct }, m.profitBookFailed);
      return { success: true, message: pct === null ? m.profitBookReset : m.profitBookSaved };
    },
  );

  // CSV exports (ours): one row per fill with date, pair, side, price, quantity, quote, fee, fee asset, PnL,
  // and the exchange the bot trades on.
  r.get(
    botApiPaths.fillsCsv,
    { ...guard, schema: { querystring: botFillsCsvQuerySchema } },
    async (req, reply) => {
      const userId = currentUser(req).id;
      const bot = await findUserBot(deps.db, userId, req.query.botID);
      if (!bot) throw new HttpError(404, m.botNotFound);
      return sendCsv(
        reply,
        `${bot.symbol}-${bot.id.slice(0, 8)}-fills.csv`,
        fillsCsv(await fillsOf(deps.db, userId, [bot.id]), await userVenueName(deps, userId)),
      );
    },
  );
  r.get(
    botApiPaths.historyFillsCsv,
    { ...guard, schema: { querystring: historyCsvQuerySchema } },
    async (req, reply) => {
      const userId = currentUser(req).id;
      const rows = await read.history(deps, userId, req.query.type);
      const ids = rows.filter((row) => historyRowMatches(row, req.query)).map((row) => row.id);
      return sendCsv(
        reply,
        `history-${req.query.type}-fills.csv`,
        fillsCsv(await fillsOf(deps.db, userId, ids), await userVenueName(deps, userId)),
      );
    },
  );

  r.get(botApiPaths.profitTotals, guard, async (req) => read.profitTotals(deps, currentUser(req).id));
  r.get(botApiPaths.topBots, { ...guard, schema: { querystring: topBotsQuerySchema } }, async (req) => ({
    bots: await read.topBots(deps, currentUser(req).id, req.query),
  }));
  r.post(botApiPaths.copyBotStrategy, withBody(copyBotInputSchema), async (req) =>
    read.copyBotStrategy(deps, currentUser(req).id, req.body.copyToken),
  );
}
