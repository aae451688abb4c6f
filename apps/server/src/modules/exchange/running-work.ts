import type { Db } from '@gridbot/db';
import type { RunningWork } from '../../deps';
import { hasRunningBot } from '../bots/bots.repo';

export function runningWorkOf(db: Db): RunningWork {
  return { hasRunning: (userId) => hasRunningBot(db, userId) };
}
