export { type VerifyWebhookOptions, verifyWebhook } from './webhooks.js';
