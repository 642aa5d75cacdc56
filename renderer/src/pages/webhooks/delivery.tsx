import { Alert, Badge, Button, Code, Group, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { can } from '../../api/projects';
import {
  useDelivery,
  useDeliveryBody,
  useRefreshOnDeliveryAttempts,
  useResendDelivery,
  useWebhook,
} from '../../api/webhooks';
import { QueryStatus } from '../../components/error-alert';
import { LiveBadge } from '../../components/live-badge';
import { Time } from '../../components/time';
import type { Environment, Project, WebhookAttempt, WebhookDelivery } from '../../sdk';
import { MissingCapability, ProjectPage } from '../../shell/project-page';
import { Countdown, DeliveryStatusBadge, Field, ResponseBadge, WebhookCrumbs } from './parts';

/** The first attempt and six retries (spec, section 8). */
const MAX_ATTEMPTS = 7;

export function WebhookDeliveryPage() {
  return (
    <ProjectPage title="Webhook delivery" environmentScoped>
      {(project, environment) =>
        can(project, 'webhooks:read') ? (
          <Delivery key={environment} project={project} environment={environment} />
        ) : (
          <MissingCapability project={project} what="see webhook deliveries" capability="webhooks:read" />
        )
      }
    </ProjectPage>
  );
}

function Delivery({ project, environment }: { project: Project; environment: Environment }) {
  const { webhookId, deliveryId } = useParams({
    from: '/signed-in/projects/$projectId/webhooks/$webhookId/deliveries/$deliveryId',
  });
  const endpoint = useWebhook(project.id, environment, webhookId);
  const delivery = useDelivery(project.id, environment, webhookId, deliveryId);
  useRefreshOnDeliveryAttempts(project.id, environment);
  const manage = can(project, 'webhooks:manage');
  return (
    <>
      <WebhookCrumbs project={project} environment={environment} endpoint={endpoint.data} last={deliveryId} />
      <QueryStatus query={delivery} loading="Loading the delivery" failed="The delivery could not be loaded" />
      {delivery.data ? (
        <>
          <DeliverySummary project={project} environment={environment} delivery={delivery.data} manage={manage} />
          <Paper withBorder p="md">
            <Stack gap="xs">
              <Title order={2} size="h4">
                Request body
              </Title>
              {manage ? (
                <RequestBody project={project} environment={environment} delivery={delivery.data} />
              ) : (
                <MissingCapability
                  project={project}
                  what="see the body sent (it can carry message text)"
                  capability="webhooks:manage"
                />
              )}
            </Stack>
          </Paper>
          <Title order={2} size="h4">
            Attempts
          </Title>
          {delivery.data.attemptLog.length === 0 ? (
            <Text c="dimmed" size="sm">
              No attempt yet: the delivery is queued and goes out in a moment.
            </Text>
          ) : null}
          {[...delivery.data.attemptLog].reverse().map((attempt) => (
            <AttemptCard key={attempt.number} attempt={attempt} />
          ))}
        </>
      ) : null}
    </>
  );
}

function DeliverySummary({
  project,
  environment,
  delivery,
  manage,
}: {
  project: Project;
  environment: Environment;
  delivery: WebhookDelivery;
  manage: boolean;
}) {
  const resend = useResendDelivery(project.id, environment, delivery.webhookId);
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Group gap="sm">
              <Title order={2} size="h4" ff="monospace">
                {delivery.eventType}
              </Title>
              <DeliveryStatusBadge status={delivery.status} />
            </Group>
            <Text size="xs" c="dimmed">
              Event <Code>{delivery.eventId}</Code> (the same on every attempt and resend) · delivery{' '}
              <Code>{delivery.id}</Code>
            </Text>
          </Stack>
          <Group gap="xs">
            <LiveBadge />
            {manage ? (
              <Button
                variant="default"
                loading={resend.isPending}
                onClick={() =>
                  resend.mutate(delivery.id, {
                    onSuccess: () => notifications.show({ color: 'green', message: 'Resend queued' }),
                  })
                }
              >
                Resend
              </Button>
            ) : null}
          </Group>
        </Group>
        <Group gap="xl">
          <Field label="Created">
            <Text size="sm">
              <Time value={delivery.createdAt} seconds />
            </Text>
          </Field>
          <Field label="Attempts">
            <Text size="sm">
              {delivery.attempts}
              {delivery.status === 'PENDING' ? ` of ${MAX_ATTEMPTS} (resends add one each)` : ''}
            </Text>
          </Field>
          <Field label="Next attempt">
            <Text size="sm">
              {delivery.nextAttemptAt ? <Countdown to={delivery.nextAttemptAt} /> : 'None: settled'}
            </Text>
          </Field>
        </Group>
        {delivery.status === 'FAILED' && delivery.lastError ? (
          <Alert color="red" title="Failed for good">
            {delivery.lastError} Resend it once the endpoint answers with a 2xx.
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** The body exactly as POSTed and signed (the same bytes on every attempt), or indented to read. */
function RequestBody({
  project,
  environment,
  delivery,
}: {
  project: Project;
  environment: Environment;
  delivery: WebhookDelivery;
}) {
  const body = useDeliveryBody(project.id, environment, delivery.webhookId, delivery.id, true);
  const [shown, setShown] = useState<'sent' | 'indented'>('sent');
  return (
    <>
      <QueryStatus query={body} loading="Loading the body" failed="The body could not be loaded" />
      {body.data ? (
        <>
          <SegmentedControl
            aria-label="Show the body"
            size="xs"
            w="fit-content"
            value={shown}
            onChange={(value) => setShown(value === 'indented' ? 'indented' : 'sent')}
            data={[
              { value: 'sent', label: 'As sent' },
              { value: 'indented', label: 'Indented' },
            ]}
          />
          <Code
            block
            aria-label={shown === 'sent' ? 'Request body as sent' : 'Request body, indented'}
            style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
          >
            {shown === 'sent' ? body.data.body : indented(body.data.body)}
          </Code>
          <Text size="xs" c="dimmed">
            {body.data.contentType}, {new TextEncoder().encode(body.data.body).length} bytes, signed as sent, the same
            on every attempt.
          </Text>
        </>
      ) : null}
    </>
  );
}

function indented(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

function AttemptCard({ attempt }: { attempt: WebhookAttempt }) {
  const headers = Object.entries(attempt.requestHeaders ?? {});
  return (
    <Paper withBorder p="md" component="section" aria-label={`Attempt ${attempt.number}`}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="sm">
            <Title order={3} size="h5">
              Attempt {attempt.number}
            </Title>
            <ResponseBadge statusCode={attempt.statusCode} />
            {attempt.injectedFault ? (
              // Shaped by a fault injected into the environment on purpose, not by the endpoint.
              <Badge color="orange.9" c="black" title="A fault injected into the environment shaped this attempt">
                Injected: {attempt.injectedFault}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed">
            <Time value={attempt.attemptedAt} seconds /> · {attempt.durationMs} ms
          </Text>
        </Group>
        {attempt.error ? (
          <Alert color="red" variant="light" p="xs">
            {attempt.error}
          </Alert>
        ) : null}
        <Text size="sm" fw={500}>
          Request headers
        </Text>
        {headers.length ? (
          <Table withTableBorder fz="xs" ff="monospace">
            <Table.Tbody>
              {headers.map(([name, value]) => (
                <Table.Tr key={name}>
                  <Table.Th w={200}>{name}</Table.Th>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm" c="dimmed">
            Nothing was sent.
          </Text>
        )}
        <Text size="sm" fw={500}>
          Response body
        </Text>
        {attempt.responseBody ? (
          <Code
            block
            aria-label={`Response body of attempt ${attempt.number}`}
            style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
          >
            {attempt.responseBody}
          </Code>
        ) : (
          <Text size="sm" c="dimmed">
            {attempt.responseBody === '' ? 'Empty.' : 'No response.'}
          </Text>
        )}
        {attempt.responseBody && new TextEncoder().encode(attempt.responseBody).length >= 4000 ? (
          <Text size="xs" c="dimmed">
            The log keeps the first 4 KB of a response.
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
