/**
 * The Start BOT screen opened with a strategy chosen elsewhere (My Strategies, a strategy editor, Copy BOTs).
 * Features do not import each other, so the link is written here once and read back by the form.
 *
 * Start BOT's own bot type select offers Advanced Multigrid and shows Scalping Grid disabled as 'coming
 * soon...' (docs/spec/01-core-screens.md Start New Bot); a Scalping bot starts from a Scalping strategy
 * through this link, which opens the form in Scalping mode with the type fixed.
 */
export type StartBotType = 'Multigrid' | 'Scalping';

export interface StartBotPrefill {
  botType: StartBotType;
  strategy?: string;
  pair?: string;
  category?: 'Spot' | 'Future';
}

export const START_BOT_SCREEN = '/startbot';

/** `/startbot?…` with what is known; empty fields are left out. */
export function startBotPath(prefill: StartBotPrefill): string {
  const params = new URLSearchParams();
  if (prefill.pair) params.set('pair', prefill.pair);
  if (prefill.category) params.set('category', prefill.category);
  if (prefill.strategy) params.set('strategy', prefill.strategy);
  params.set('botType', prefill.botType);
  return `${START_BOT_SCREEN}?${params.toString()}`;
}
