import { Alert, Button, Code, Group, Modal, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { can } from '../../api/projects';
import {
  useDeleteWebhook,
  useRefreshOnDeliveryAttempts,
  useSendTestEvent,
  useUpdateWebhook,
  useWebhook,
  useWebhookCatalogue,
} from '../../api/webhooks';
import { confirmDanger } from '../../components/confirm';
import { ErrorAlert, QueryStatus } from '../../components/error-alert';
import { SnippetTabs } from '../../components/snippet-tabs';
import { Time } from '../../components/time';
import type { Environment, Project, WebhookEndpoint, WebhookEventType } from '../../sdk';
import { MissingCapability, ProjectPage } from '../../shell/project-page';
import { DeliveryLog } from './delivery-log';
import { EndpointForm } from './endpoint-form';
import { EndpointQueue } from './endpoint-queue';
import { EndpointStatusBadge, EventList, Field, WebhookCrumbs } from './parts';
import { verifySnippets } from './verify-snippets';

export function WebhookEndpointPage() {
  return (
    <ProjectPage title="Webhook endpoint" environmentScoped>
      {(project, environment) =>
        can(project, 'webhooks:read') ? (
          <Endpoint key={environment} project={project} environment={environment} />
        ) : (
          <MissingCapability project={project} what="see webhook endpoints" capability="webhooks:read" />
        )
      }
    </ProjectPage>
  );
}

function Endpoint({ project, environment }: { project: Project; environment: Environment }) {
  const { webhookId } = useParams({ from: '/signed-in/projects/$projectId/webhooks/$webhookId' });
  const endpoint = useWebhook(project.id, environment, webhookId);
  useRefreshOnDeliveryAttempts(project.id, environment);
  const manage = can(project, 'webhooks:manage');
  return (
    <>
      <WebhookCrumbs project={project} environment={environment} endpoint={endpoint.data} />
      <QueryStatus query={endpoint} loading="Loading the endpoint" failed="The endpoint could not be loaded" />
      {endpoint.data ? (
        <>
          <EndpointSummary project={project} environment={environment} endpoint={endpoint.data} manage={manage} />
          <EndpointQueue projectId={project.id} environment={environment} webhookId={endpoint.data.id} />
          {manage ? (
            <TestEvent project={project} environment={environment} endpoint={endpoint.data} />
          ) : (
            <MissingCapability
              project={project}
              what="change the endpoint or send events"
              capability="webhooks:manage"
            />
          )}
          <DeliveryLog project={project} environment={environment} endpoint={endpoint.data} />
          <Paper withBorder p="md">
            <Stack gap="xs">
              <Title order={2} size="h4">
                Verify the signature in your handler
              </Title>
              <Text size="sm" c="dimmed">
                Check <Code>Service-Signature</Code> against the raw body before trusting a delivery: anyone can POST to
                your URL.
              </Text>
              <SnippetTabs snippets={verifySnippets(endpoint.data)} />
            </Stack>
          </Paper>
        </>
      ) : null}
    </>
  );
}

function EndpointSummary({
  project,
  environment,
  endpoint,
  manage,
}: {
  project: Project;
  environment: Environment;
  endpoint: WebhookEndpoint;
  manage: boolean;
}) {
  const update = useUpdateWebhook(project.id, environment, endpoint.id);
  const remove = useDeleteWebhook(project.id, environment);
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const toggle = () =>
    update.mutate(
      { enabled: !endpoint.enabled },
      {
        onSuccess: (after) =>
          notifications.show({ color: 'green', message: after.enabled ? 'Endpoint enabled' : 'Endpoint disabled' }),
      },
    );
  const confirmDelete = () =>
    confirmDanger({
      title: 'Delete this endpoint?',
      message: `${endpoint.url} receives nothing more, and its delivery log is deleted with it. This cannot be undone.`,
      confirm: 'Delete endpoint',
      onConfirm: () =>
        remove.mutate(endpoint.id, {
          onSuccess: () => {
            notifications.show({ color: 'green', message: `Deleted the endpoint ${endpoint.url}` });
            void navigate({
              to: '/projects/$projectId/webhooks',
              params: { projectId: project.id },
              search: { env: environment },
            });
          },
        }),
    });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Title order={2} size="h4" style={{ wordBreak: 'break-all' }}>
              {endpoint.url}
            </Title>
            <Text size="xs" c="dimmed" ff="monospace">
              {endpoint.id}
            </Text>
          </Stack>
          {manage ? (
            <Group gap="xs">
              <Button variant="default" onClick={() => setEditing(true)}>
                Edit
              </Button>
              {/* Enabling is what a disabled endpoint's page is for: the prominent button. */}
              <Button variant={endpoint.enabled ? 'default' : 'filled'} onClick={toggle} loading={update.isPending}>
                {endpoint.enabled ? 'Disable' : 'Enable'}
              </Button>
              <Button color="red" variant="light" onClick={confirmDelete} loading={remove.isPending}>
                Delete
              </Button>
            </Group>
          ) : null}
        </Group>
        <Group gap="xl">
          <Field label="Status">
            <EndpointStatusBadge endpoint={endpoint} />
          </Field>
          <Field label="Failures in a row">
            <Text size="sm">{endpoint.consecutiveFailures} (50 disable it)</Text>
          </Field>
          <Field label="Added">
            <Text size="sm">
              <Time value={endpoint.createdAt} />
            </Text>
          </Field>
        </Group>
        <Field label="Events">
          <EventList events={endpoint.events} />
        </Field>
        {endpoint.enabled ? null : (
          <Alert color="gray" title="Disabled: nothing is sent to this endpoint">
            {endpoint.disabledReason ?? 'Disabled.'} Since <Time value={endpoint.disabledAt} />. Its pending deliveries
            failed; enabling it clears the failure count, and later events are delivered again.
          </Alert>
        )}
      </Stack>
      <Modal opened={editing} onClose={() => setEditing(false)} title="Edit the endpoint" size="lg">
        <Stack>
          <EndpointForm
            initial={{ url: endpoint.url, events: endpoint.events as WebhookEventType[] }}
            submitLabel="Save changes"
            pending={update.isPending}
            onSubmit={(values) =>
              update.mutate(values, {
                onSuccess: () => {
                  setEditing(false);
                  notifications.show({ color: 'green', message: 'Endpoint saved' });
                },
              })
            }
          />
          <ErrorAlert title="The endpoint was not saved" error={update.error} />
        </Stack>
      </Modal>
    </Paper>
  );
}

/** Any catalogue type, with its example data, to this endpoint only. */
function TestEvent({
  project,
  environment,
  endpoint,
}: {
  project: Project;
  environment: Environment;
  endpoint: WebhookEndpoint;
}) {
  const catalogue = useWebhookCatalogue();
  const send = useSendTestEvent(project.id, environment, endpoint.id);
  const [type, setType] = useState<string | null>(null);
  const chosen = type ?? endpoint.events[0] ?? catalogue.data?.[0]?.type ?? null;
  const description = catalogue.data?.find((entry) => entry.type === chosen)?.description;
  return (
    <Paper withBorder p="md">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!chosen) return;
          send.mutate(chosen as WebhookEventType, {
            onSuccess: () =>
              notifications.show({ color: 'green', message: `Test ${chosen} event queued: see the delivery log` }),
          });
        }}
      >
        <Stack gap="xs">
          <Title order={2} size="h4">
            Send a test event
          </Title>
          <Group align="flex-end">
            <Select
              label="Event type"
              data={(catalogue.data ?? []).map((entry) => entry.type)}
              value={chosen}
              onChange={setType}
              allowDeselect={false}
              searchable
              w={280}
            />
            <Button type="submit" variant="default" loading={send.isPending} disabled={!endpoint.enabled}>
              Send test event
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            {endpoint.enabled
              ? `${description ?? ''} Sent with the catalogue’s example data, signed and retried like any delivery, whatever the endpoint subscribes to.`
              : 'Enable the endpoint to send it events.'}
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}
