import type { Db } from '@gridbot/db';
import type { RunningWork } from '../../app/deps';
import { hasRunningBot } from './bots.repo';

export function runningWorkOf(db: Db): RunningWork {
  return { hasRunning: (userId) => hasRunningBot(db, userId) };
}
