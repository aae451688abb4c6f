import type { AppDeps } from '../app/deps';
import { defaultPlatformConfig } from './platform-config';
import type { PlatformDeps } from './platform-deps';

/** The platform's slice of AppDeps; config.platform is optional so older wiring keeps its defaults. */
export function platformDepsOf(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'>,
): PlatformDeps & { subscriptionEnabled: boolean } {
  return {
    db: deps.db,
    clock: deps.clock,
    platform: deps.config.platform ?? defaultPlatformConfig,
    subscriptionEnabled: deps.config.subscriptionEnabled,
  };
}
