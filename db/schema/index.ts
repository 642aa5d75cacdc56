export * from './api-keys.js';
export * from './audit-log.js';
export * from './environment.js';
export * from './projects.js';
export * from './server-secrets.js';
export * from './sessions.js';
export * from './users.js';
export * from './webhooks.js';
