/**
 * The bands against the decisions they are read from (quiet-band.ts): random bots are run along random
 * paths, and at every state reached with nothing pending a price inside the band must leave the bot as it
 * is, while a price just beyond an edge must set off a rule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventBandOf, step } from '../engine';
import { MULTIGRID_HOOKS } from '../strategies/multigrid/multigrid.step';
import { SCALPING_HOOKS } from '../strategies/scalping/scalping.step';
import { botArb, feeOf, pathArb, rulesOf } from '../testing/arbitraries';
import { runPrices } from '../testing/harness';
import type { StepResult } from '../types';
import type { GridBotState } from './grid-bot.state';
import { riskExit } from './grid-rules';
import { type QuietBand, quietBand, UNSET_BAND } from './quiet-band';

const hooksOf = (s: GridBotState) => (s.kind === 'scalping' ? SCALPING_HOOKS : MULTIGRID_HOOKS);

/** The states a run reaches with nothing pending (every intent fills at once), at most `n` of them. */
function statesOf(bot: GridBotState, path: number[], n = 12): GridBotState[] {
  const states = runPrices(bot, path, rulesOf(bot), { feePct: feeOf(bot) })
    .log.map((t) => t.state)
    .filter((s) => s.pending.length === 0 && s.status !== 'Stopped');
  const every = Math.max(1, Math.floor(states.length / n));
  return states.filter((_, i) => i % every === 0);
}

/** A price strictly inside `band`, at fraction `u` of it (an open side is taken as twice the other). */
function inside(band: QuietBand, u: number): number | null {
  const lo = Number.isFinite(band.lo) ? Math.max(band.lo, 0) : 0;
  const hi = Number.isFinite(band.hi) && band.hi < Number.MAX_VALUE ? band.hi : Math.max(lo * 2, 1);
  const p = lo + u * (hi - lo);
  return p > band.lo && p < band.hi && p > 0 ? p : null;
}

/** The full evaluation: no quiet-band shortcut. */
const fullStep = (s: GridBotState, price: number): StepResult<GridBotState> =>
  step({ ...s, quiet: UNSET_BAND }, { price, timeMs: s.stats.startTimeMs + 1 }, rulesOf(s));

/** What the next decisions depend on; path-following values (a trailing high or low, peak equity) left out. */
const decisive = (s: GridBotState) =>
  JSON.stringify({
    status: s.status,
    stopReason: s.stopReason,
    seq: s.seq,
    pending: s.pending,
    exitRequest: s.exitRequest,
    lots: s.lots.map((l) => [l.id, l.armed]),
    trailArmed: s.trail.armed,
    account: s.account,
  });

/** Whether a rule acted at `price`: an intent or notice, a decisive change, or a risk exit (a paused bot's pause). */
function ruleFires(s: GridBotState, price: number): boolean {
  const r = fullStep(s, price);
  if (r.intents.length > 0 || (r.notices?.length ?? 0) > 0) return true;
  return decisive(r.state) !== decisive(s) || riskExit(s, price, price) !== null;
}

const u = fc.double({ min: 0.01, max: 0.99, noNaN: true });

describe('the quiet and event bands agree with the decisions', () => {
  it('changes nothing at all for a price inside the quiet band', () => {
    fc.assert(
      fc.property(botArb, pathArb, u, (bot, path, f) => {
        for (const s of statesOf(bot, path)) {
          const p = inside(quietBand(s, hooksOf(s)), f);
          if (p === null) continue;
          const r = fullStep(s, p);
          expect(r.intents).toEqual([]);
          expect(JSON.stringify({ ...r.state, quiet: null })).toBe(JSON.stringify({ ...s, quiet: null }));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('emits nothing and changes no decision inside the event band', () => {
    fc.assert(
      fc.property(botArb, pathArb, u, (bot, path, f) => {
        for (const s of statesOf(bot, path)) {
          const p = inside(eventBandOf(s), f);
          if (p === null) continue;
          const r = fullStep(s, p);
          expect(r.intents).toEqual([]);
          expect(r.notices ?? []).toEqual([]);
          expect(decisive(r.state)).toBe(decisive(s));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('sets off a rule just beyond either edge of the event band', () => {
    fc.assert(
      fc.property(botArb, pathArb, u, (bot, path, f) => {
        for (const s of statesOf(bot, path)) {
          const band = eventBandOf(s);
          if (band.lo > band.hi) {
            // A rule fires at any price (an empty stack buys at market, the profit book is reached).
            expect(ruleFires(s, inside({ lo: 0, hi: 200 }, f) as number)).toBe(true);
            continue;
          }
          if (Number.isFinite(band.hi)) expect(ruleFires(s, band.hi * (1 + 1e-7))).toBe(true);
          if (Number.isFinite(band.lo) && band.lo > 0) expect(ruleFires(s, band.lo * (1 - 1e-7))).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });
});
