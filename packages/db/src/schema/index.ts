export * from './api-keys';
export * from './bot-runtime';
export * from './bots';
export * from './messages';
export * from './paper';
export * from './sessions';
export * from './strategies';
export * from './users';
