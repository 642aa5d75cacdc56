import { Button, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useDeliveries, useWebhookCatalogue } from '../../api/webhooks';
import { CursorPager } from '../../components/cursor-pager';
import { QueryStatus } from '../../components/error-alert';
import { AnchorLink } from '../../components/links';
import { LiveBadge } from '../../components/live-badge';
import { Time } from '../../components/time';
import {
  type Environment,
  type Project,
  WEBHOOK_DELIVERY_STATUSES,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../../sdk';
import { Countdown, DeliveryStatusBadge, ResponseBadge } from './parts';

const PAGE_SIZE = 20;
const ANY = 'any';

/** The endpoint's deliveries, newest first, filtered and paged with the state in the URL; updated as attempts are made. */
export function DeliveryLog({
  project,
  environment,
  endpoint,
}: {
  project: Project;
  environment: Environment;
  endpoint: WebhookEndpoint;
}) {
  const search = useSearch({ from: '/signed-in/projects/$projectId/webhooks/$webhookId' });
  const navigate = useNavigate({ from: '/projects/$projectId/webhooks/$webhookId' });
  const catalogue = useWebhookCatalogue();
  const cursors = search.cursors ?? [];
  const page = useDeliveries(project.id, environment, endpoint.id, {
    limit: PAGE_SIZE,
    status: search.status,
    eventType: search.eventType as WebhookEventType | undefined,
    cursor: cursors.at(-1),
  });
  const go = (next: Partial<typeof search>) => navigate({ search: (prev) => ({ ...prev, ...next }) });
  const filtered = Boolean(search.status || search.eventType);
  return (
    <Paper withBorder p="md" component="section" aria-label="Delivery log">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Delivery log
          </Title>
          <LiveBadge />
        </Group>
        <Group align="flex-end">
          <Select
            label="Filter by status"
            data={[{ value: ANY, label: 'Any status' }, ...WEBHOOK_DELIVERY_STATUSES]}
            value={search.status ?? ANY}
            allowDeselect={false}
            onChange={(value) =>
              void go({ status: WEBHOOK_DELIVERY_STATUSES.find((s) => s === value), cursors: undefined })
            }
            w={180}
          />
          <Select
            label="Filter by event type"
            data={[{ value: ANY, label: 'Any event type' }, ...(catalogue.data ?? []).map((entry) => entry.type)]}
            value={search.eventType ?? ANY}
            allowDeselect={false}
            searchable
            onChange={(value) => void go({ eventType: value && value !== ANY ? value : undefined, cursors: undefined })}
            w={260}
          />
          {filtered ? (
            <Button
              variant="subtle"
              onClick={() => void go({ status: undefined, eventType: undefined, cursors: undefined })}
            >
              Clear filters
            </Button>
          ) : null}
        </Group>
        <QueryStatus query={page} loading="Loading deliveries" failed="The delivery log could not be loaded" />
        {page.data?.data.length === 0 ? (
          <Text c="dimmed" size="sm">
            {filtered
              ? 'No delivery matches these filters.'
              : 'No deliveries yet: events of the subscribed types appear here as they happen. Send a test event to try the endpoint.'}
          </Text>
        ) : null}
        {page.data?.data.length ? (
          <Table.ScrollContainer minWidth={760}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Attempts</Table.Th>
                  <Table.Th>Last answer</Table.Th>
                  <Table.Th>Next attempt</Table.Th>
                  <Table.Th>Created</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {page.data.data.map((delivery) => (
                  <DeliveryRow key={delivery.id} project={project} environment={environment} delivery={delivery} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
        <CursorPager nextCursor={page.data?.nextCursor} newer="Newer deliveries" older="Older deliveries" />
      </Stack>
    </Paper>
  );
}

function DeliveryRow({
  project,
  environment,
  delivery,
}: {
  project: Project;
  environment: Environment;
  delivery: WebhookDelivery;
}) {
  return (
    <Table.Tr>
      <Table.Td>
        <AnchorLink
          to="/projects/$projectId/webhooks/$webhookId/deliveries/$deliveryId"
          params={{ projectId: project.id, webhookId: delivery.webhookId, deliveryId: delivery.id }}
          search={{ env: environment }}
          ff="monospace"
          size="sm"
        >
          {delivery.eventType}
        </AnchorLink>
        <Text size="xs" c="dimmed" ff="monospace">
          {delivery.id}
        </Text>
      </Table.Td>
      <Table.Td>
        <DeliveryStatusBadge status={delivery.status} />
      </Table.Td>
      <Table.Td>{delivery.attempts}</Table.Td>
      <Table.Td>{delivery.attempts > 0 ? <ResponseBadge statusCode={delivery.lastStatusCode} /> : '—'}</Table.Td>
      <Table.Td>{delivery.nextAttemptAt ? <Countdown to={delivery.nextAttemptAt} /> : '—'}</Table.Td>
      <Table.Td>
        <Time value={delivery.createdAt} seconds />
      </Table.Td>
    </Table.Tr>
  );
}
