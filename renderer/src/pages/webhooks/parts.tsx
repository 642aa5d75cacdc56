import { Badge, Breadcrumbs, Group, Stack, Text } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';
import { AnchorLink } from '../../components/links';
import type { Environment, Project, WebhookDeliveryStatus, WebhookEndpoint } from '../../sdk';

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

/** Back to the environment's endpoints, with the endpoint (when known) as the last crumb. */
export function WebhookCrumbs({
  project,
  environment,
  endpoint,
  last,
}: {
  project: Project;
  environment: Environment;
  endpoint?: WebhookEndpoint;
  last?: string;
}) {
  return (
    <Breadcrumbs separator="›" component="nav" aria-label="Breadcrumb" style={{ flexWrap: 'nowrap', minWidth: 0 }}>
      <AnchorLink to="/projects/$projectId/webhooks" params={{ projectId: project.id }} search={{ env: environment }}>
        Webhooks
      </AnchorLink>
      {endpoint && last ? (
        <AnchorLink
          to="/projects/$projectId/webhooks/$webhookId"
          params={{ projectId: project.id, webhookId: endpoint.id }}
          search={{ env: environment }}
          truncate="end"
          title={endpoint.url}
        >
          {endpoint.url}
        </AnchorLink>
      ) : null}
      {/* An endpoint's URL can be longer than a phone's screen: cut to the crumbs' row, whole in its title. */}
      <Text size="sm" truncate="end" miw={0} title={last ?? endpoint?.url}>
        {last ?? endpoint?.url ?? ''}
      </Text>
    </Breadcrumbs>
  );
}
