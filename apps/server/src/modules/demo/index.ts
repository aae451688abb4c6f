// What other modules may use of this one; they import nothing else from it (docs/architecture.md §2).
export { DEMO_ADMIN } from './demo-admin';
export { DEMO_ACCOUNT, seedDemoAccount } from './demo-seed';
