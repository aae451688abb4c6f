/**
 * The cycle API's paths, written once for the server's routes and the web's calls
 * (docs/spec/02-bots-wallet-account.md §7 Cycles; docs/architecture.md §4).
 */
export const cycleApiPaths = {
  live: '/api/livecycles',
  start: '/api/startcycledata',
  edit: '/api/editcycle',
  stop: '/api/stopcycle',
  stopWithSell: '/api/stopcyclewithsell',
  /** Ours: resumes a cycle the runtime paused. */
  resume: '/api/resumecycle',
  history: '/api/cyclebothistory',
} as const;
