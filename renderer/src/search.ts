import { ENVIRONMENTS, type Environment, WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryStatus } from './sdk';

/** Search parameters are the page's state: a copied link reproduces the view. Anything unknown is dropped. */
type Raw = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

const stringsOf = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((c): c is string => typeof c === 'string') : undefined;

export function environmentOf(value: unknown): Environment | undefined {
  return ENVIRONMENTS.find((env) => env === value);
}

/** `?env=` of every project page (development when absent). */
export interface ProjectSearch {
  env?: Environment;
}

export const projectSearch = (raw: Raw): ProjectSearch => ({ env: environmentOf(raw.env) });

export interface SignInSearch {
  /** The page the user wanted, to go back to after signing in. */
  redirect?: string;
}

export const signInSearch = (raw: Raw): SignInSearch => ({ redirect: text(raw.redirect) });

/** Where a single sign-on returns (`/sign-in/sso`): a grant to redeem, or why it was refused. */
export interface SingleSignOnSearch extends SignInSearch {
  grant?: string;
  error?: string;
  /** The provider's error code, or the refused domain. */
  detail?: string;
}

export const singleSignOnSearch = (raw: Raw): SingleSignOnSearch => ({
  ...signInSearch(raw),
  grant: text(raw.grant),
  error: text(raw.error),
  detail: text(raw.detail),
});

export interface RegisterSearch extends SignInSearch {
  /** An invitation token (from a project's Members page) and the address it was made for. */
  invitation?: string;
  email?: string;
}

export const registerSearch = (raw: Raw): RegisterSearch => ({
  ...signInSearch(raw),
  invitation: text(raw.invitation),
  email: text(raw.email),
});

export interface AuditSearch extends ProjectSearch {
  action?: string;
  /** Filter: entries about this environment only. */
  environment?: Environment;
  /** The cursors of the pages walked through, oldest first: the last one is the page shown; none is the first. */
  cursors?: string[];
}

export const auditSearch = (raw: Raw): AuditSearch => ({
  ...projectSearch(raw),
  action: text(raw.action),
  environment: environmentOf(raw.environment),
  cursors: stringsOf(raw.cursors),
});

// ── Live streams and chat ────────────────────────────────────────────────────────────────────────

/** `?env=` for a link to another page of the same environment (none for development, the default). */
export const envSearch = (environment: Environment): ProjectSearch => ({
  env: environment === 'development' ? undefined : environment,
});

/** A page of a paged list: the cursors of the pages walked through, oldest first (none: the first page). */
export interface PagedSearch extends ProjectSearch {
  cursors?: string[];
}

export const pagedSearch = (raw: Raw): PagedSearch => ({ ...projectSearch(raw), cursors: stringsOf(raw.cursors) });

export const PARTICIPANT_FILTERS = ['host', 'viewer'] as const;

/** A stream's page: its participants filtered to hosts or viewers (both when absent), paged. */
export interface LiveStreamSearch extends PagedSearch {
  who?: (typeof PARTICIPANT_FILTERS)[number];
}

export const liveStreamSearch = (raw: Raw): LiveStreamSearch => ({
  ...pagedSearch(raw),
  who: PARTICIPANT_FILTERS.find((w) => w === raw.who),
});

// ── Webhooks ──

export interface WebhookLogSearch extends PagedSearch {
  /** Filters of the endpoint's delivery log. */
  status?: WebhookDeliveryStatus;
  eventType?: string;
}

export const webhookLogSearch = (raw: Raw): WebhookLogSearch => ({
  ...pagedSearch(raw),
  status: WEBHOOK_DELIVERY_STATUSES.find((status) => status === raw.status),
  eventType: text(raw.eventType),
});

// ── Observability, usage and the live tail ──

/** The metrics windows offered (the API takes any up to 24h). */
export const METRIC_WINDOWS = ['15m', '1h', '6h', '24h'] as const;
export type MetricWindow = (typeof METRIC_WINDOWS)[number];

export interface MetricsSearch extends ProjectSearch {
  /** 1h when absent. */
  window?: MetricWindow;
}

export const metricsSearch = (raw: Raw): MetricsSearch => ({
  ...projectSearch(raw),
  window: METRIC_WINDOWS.find((w) => w === raw.window),
});

export interface ConnectionsSearch extends PagedSearch {
  kind?: 'signaling' | 'realtime';
}

export const connectionsSearch = (raw: Raw): ConnectionsSearch => ({
  ...pagedSearch(raw),
  kind: raw.kind === 'signaling' || raw.kind === 'realtime' ? raw.kind : undefined,
});

export interface UsageSearch extends ProjectSearch {
  /** `YYYY-MM` (UTC); the current month when absent. */
  month?: string;
}

export const usageSearch = (raw: Raw): UsageSearch => ({
  ...projectSearch(raw),
  month: typeof raw.month === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(raw.month) ? raw.month : undefined,
});

export interface LiveTailSearch extends ProjectSearch {
  /** Only events of these types (all when absent). */
  types?: string[];
  /** Only events whose data contains this text (an id, an identity…). */
  q?: string;
}

export const liveTailSearch = (raw: Raw): LiveTailSearch => ({
  ...projectSearch(raw),
  types: stringsOf(raw.types),
  q: text(raw.q),
});
