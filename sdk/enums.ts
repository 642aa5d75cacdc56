import type { Environment, EnvironmentReset, FaultKind, ProjectRole, WebhookDeliveryStatus } from './types.js';

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

/** What can be injected into an environment (`faults.add`), in the API's order. */
export const FAULT_KINDS = [
  'webhook.duplicate',
  'webhook.out_of_order',
  'webhook.delay',
  'webhook.failure',
  'api.unavailable',
  'api.latency',
] as const satisfies readonly FaultKind[];

/**
 * What an environment reset counts (the `removed` of `environments.reset`), in the API's order, each named for people:
 * the dashboard and the command-line tool show them alike. The type makes the compiler refuse a missing or extra one.
 */
export const RESET_COUNT_LABELS: Record<keyof EnvironmentReset['removed'], string> = {
  rooms: 'Rooms',
  conversations: 'Conversations',
  conversationMembers: 'Conversation members',
  messages: 'Messages',
  reactions: 'Reactions',
  readStates: 'Read positions',
  attachments: 'Attachments',
  liveStreams: 'Live streams',
  liveStreamParticipants: 'Live stream participants',
  connections: 'Connection records',
  webhookDeliveries: 'Webhook deliveries',
  webhookAttempts: 'Webhook attempts',
  telemetryEvents: 'Telemetry events',
  metrics: 'Metric records',
  errors: 'Error records',
};

/** The counts of a reset (its `removed`), in the API's order, with their labels. */
export const resetCounts = (removed: EnvironmentReset['removed']): [label: string, count: number][] =>
  (Object.keys(RESET_COUNT_LABELS) as (keyof EnvironmentReset['removed'])[]).map((key) => [
    RESET_COUNT_LABELS[key],
    removed[key],
  ]);

type Missing<All, Listed> = Exclude<All, Listed> extends never ? true : { missing: Exclude<All, Listed> };
const everyEnvironment: Missing<Environment, (typeof ENVIRONMENTS)[number]> = true;
const everyRole: Missing<ProjectRole, (typeof PROJECT_ROLES)[number]> = true;
const everyFaultKind: Missing<FaultKind, (typeof FAULT_KINDS)[number]> = true;
const everyDeliveryStatus: Missing<WebhookDeliveryStatus, (typeof WEBHOOK_DELIVERY_STATUSES)[number]> = true;
void everyEnvironment;
void everyDeliveryStatus;
void everyFaultKind;
void everyRole;
