import type { Db } from '@gridbot/db';
import type { Clock } from '../lib/clock';
import type { PlatformConfig } from './platform-config';

/** What the platform services use: a narrow slice of AppDeps, so the watcher and tests build it alone. */
export interface PlatformDeps {
  db: Db;
  clock: Clock;
  platform: PlatformConfig;
}
