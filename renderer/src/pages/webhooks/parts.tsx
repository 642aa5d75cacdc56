import { Badge, Button, Group, MultiSelect, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode, useEffect, useState } from 'react';
import { useWebhookCatalogue } from '../../api/webhooks';
import type { WebhookDeliveryStatus, WebhookEndpoint, WebhookEventType } from '../../sdk';

const DELIVERY_COLORS: Record<WebhookDeliveryStatus, string> = { PENDING: 'yellow', SUCCEEDED: 'green', FAILED: 'red' };

export function DeliveryStatusBadge({ status }: { status: WebhookDeliveryStatus }) {
  return (
    <Badge color={DELIVERY_COLORS[status]} variant="light">
      {status}
    </Badge>
  );
}

export function EndpointStatusBadge({ endpoint }: { endpoint: WebhookEndpoint }) {
  return endpoint.enabled ? (
    <Badge color="green" variant="light">
      Enabled
    </Badge>
  ) : (
    <Badge color="gray" variant="filled">
      Disabled
    </Badge>
  );
}

/** An HTTP answer's status, or that none came. */
export function ResponseBadge({ statusCode }: { statusCode: number | null }) {
  if (statusCode === null)
    return (
      <Badge color="red" variant="outline">
        No response
      </Badge>
    );
  const ok = statusCode >= 200 && statusCode < 300;
  return (
    <Badge color={ok ? 'green' : 'red'} variant="light">
      HTTP {statusCode}
    </Badge>
  );
}

/** The subscribed types, or that every type is delivered (an empty list). */
export function EventList({ events }: { events: string[] }) {
  if (events.length === 0)
    return (
      <Badge variant="outline" color="gray">
        All events
      </Badge>
    );
  return (
    <Group gap={4}>
      {events.map((type) => (
        <Badge key={type} variant="default" tt="none">
          {type}
        </Badge>
      ))}
    </Group>
  );
}

const seconds = (s: number) => (s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`);

/** Time left until `to`, ticking each second in the browser (nothing is fetched): "in 9 s", then "due now". */
export function Countdown({ to }: { to: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.ceil((Date.parse(to) - now) / 1000);
  return (
    <time dateTime={to} title={to}>
      {left > 0 ? `in ${seconds(left)}` : 'due now'}
    </time>
  );
}

export interface EndpointFormValues {
  url: string;
  events: WebhookEventType[];
}

/** URL and subscribed events, chosen from the server's catalogue: adding an endpoint and editing one. */
export function EndpointForm({
  initial,
  submitLabel,
  pending,
  onSubmit,
}: {
  initial: EndpointFormValues;
  submitLabel: string;
  pending: boolean;
  onSubmit(values: EndpointFormValues): void;
}) {
  const catalogue = useWebhookCatalogue();
  const form = useForm<EndpointFormValues>({ initialValues: initial });
  return (
    <form onSubmit={form.onSubmit((values) => onSubmit({ ...values, url: values.url.trim() }))}>
      <Stack gap="sm">
        <TextInput
          label="Endpoint URL"
          description="Where the server POSTs each event. A local server accepts http:// and localhost."
          placeholder="http://localhost:3000/webhooks"
          required
          data-autofocus
          {...form.getInputProps('url')}
        />
        <MultiSelect
          label="Events"
          description="None chosen: every event, including types added later."
          placeholder={form.values.events.length === 0 ? 'All events' : undefined}
          data={(catalogue.data ?? []).map((entry) => ({ value: entry.type, label: entry.type }))}
          searchable
          clearable
          nothingFoundMessage="No such event type"
          {...form.getInputProps('events')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A small label above a value, for the facts at the top of a page. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}
