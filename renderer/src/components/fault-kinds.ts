import type { FaultKind } from '../sdk';

/** Each kind of fault as people read it, and whether it takes a delay. Typed by the SDK's kinds: a new one must be named here. */
export const FAULT_DESCRIPTIONS: Record<FaultKind, { label: string; description: string; delay?: 'required' }> = {
  'webhook.failure': {
    label: 'Webhook attempts fail',
    description: 'A share of attempts is not sent and is logged as failed, then retried on the normal schedule.',
  },
  'webhook.duplicate': {
    label: 'Webhooks delivered twice',
    description: 'A share of deliveries is sent a second time, with the same event id.',
  },
  'webhook.out_of_order': {
    label: 'Webhooks out of order',
    description: 'A share of deliveries is held back, so it arrives after events that came later.',
    delay: 'required',
  },
  'webhook.delay': {
    label: 'Webhooks late',
    description: 'A share of deliveries goes out late by the delay.',
    delay: 'required',
  },
  'api.unavailable': {
    label: 'API answers 503',
    description: 'A share of requests made with this environment’s keys and tokens is answered 503 with Retry-After.',
  },
  'api.latency': {
    label: 'API slow',
    description: 'A share of requests made with this environment’s keys and tokens waits the delay first.',
    delay: 'required',
  },
};

export const faultSummary = (fault: { kind: FaultKind; percent: number; delayMs: number | null }): string =>
  `${FAULT_DESCRIPTIONS[fault.kind].label}: ${fault.percent}%${fault.delayMs ? `, ${fault.delayMs.toLocaleString('en-US')} ms` : ''}`;
