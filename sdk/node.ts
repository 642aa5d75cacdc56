// The SDK for Node servers: everything in the browser entry, plus verifying webhook signatures
// (which receivers do on their server, with node:crypto).
export * from './index.js';
export { type VerifyWebhookOptions, verifyWebhook } from './webhooks.js';
