import type { Environment, ProjectRole, WebhookDeliveryStatus } from './types.js';

/**
 * The values of the API's enums, for clients that list them (a dashboard's role picker, an environment switcher).
 * The SDK cannot load server code at run time, so these are copies; the checks below make the compiler refuse a
 * copy that gains, loses or misspells a value the server's schemas define.
 */
export const ENVIRONMENTS = ['development', 'staging', 'production'] as const satisfies readonly Environment[];
export const PROJECT_ROLES = [
  'OWNER',
  'ADMIN',
  'DEVELOPER',
  'VIEWER',
  'BILLING',
] as const satisfies readonly ProjectRole[];

export const WEBHOOK_DELIVERY_STATUSES = [
  'PENDING',
  'SUCCEEDED',
  'FAILED',
] as const satisfies readonly WebhookDeliveryStatus[];

type Missing<All, Listed> = Exclude<All, Listed> extends never ? true : { missing: Exclude<All, Listed> };
const everyEnvironment: Missing<Environment, (typeof ENVIRONMENTS)[number]> = true;
const everyRole: Missing<ProjectRole, (typeof PROJECT_ROLES)[number]> = true;
const everyDeliveryStatus: Missing<WebhookDeliveryStatus, (typeof WEBHOOK_DELIVERY_STATUSES)[number]> = true;
void everyEnvironment;
void everyDeliveryStatus;
void everyRole;
