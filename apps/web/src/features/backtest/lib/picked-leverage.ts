/**
 * The leverage typed into the backtest panel (strategy editors, My Strategies, Copy BOTs), checked as Start
 * Bot checks it: a whole number from 1x to 10x, with Start Bot's messages.
 */
import { botMessages } from '@gridbot/shared';

export type PickedLeverage = { ok: true; leverage: number } | { ok: false; message: string };

export function pickedLeverage(text: string): PickedLeverage {
  if (text.trim() === '') return { ok: false, message: botMessages.leverageRequired };
  const v = Number(text);
  if (!Number.isFinite(v)) return { ok: false, message: botMessages.leverageWhole };
  if (v < 1) return { ok: false, message: botMessages.leverageMin };
  if (v > 10) return { ok: false, message: botMessages.leverageMax };
  if (!Number.isInteger(v)) return { ok: false, message: botMessages.leverageWhole };
  return { ok: true, leverage: v };
}
