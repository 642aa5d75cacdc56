import { Button, Code, Group, Modal, Paper, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { can } from '../../api/projects';
import { useRefreshOnDeliveryAttempts, useRegisterWebhook, useWebhooks } from '../../api/webhooks';
import { ErrorAlert, QueryStatus } from '../../components/error-alert';
import { AnchorLink } from '../../components/links';
import { LiveBadge } from '../../components/live-badge';
import { SecretOnce } from '../../components/secret-once';
import { Time } from '../../components/time';
import type { Environment, Project, RegisteredWebhook, WebhookEndpoint } from '../../sdk';
import { environmentLabel, MissingCapability, ProjectPage } from '../../shell/project-page';
import { TestClock } from '../test-tools/test-clock';
import { TriggerEvent } from '../test-tools/trigger-event';
import { EndpointForm } from './endpoint-form';
import { EndpointStatusBadge, EventList } from './parts';

export function WebhooksPage() {
  return (
    <ProjectPage
      title="Webhooks"
      environmentScoped
      description="URLs that receive this environment’s events, signed and retried, with every delivery logged."
    >
      {(project, environment) =>
        can(project, 'webhooks:read') ? (
          <Endpoints key={environment} project={project} environment={environment} />
        ) : (
          <MissingCapability project={project} what="see webhook endpoints" capability="webhooks:read" />
        )
      }
    </ProjectPage>
  );
}

function Endpoints({ project, environment }: { project: Project; environment: Environment }) {
  const endpoints = useWebhooks(project.id, environment);
  useRefreshOnDeliveryAttempts(project.id, environment);
  const manage = can(project, 'webhooks:manage');
  const [adding, setAdding] = useState(false);
  return (
    <>
      <Group justify="space-between">
        {manage ? (
          <Button onClick={() => setAdding(true)} color={environment === 'production' ? 'red' : undefined}>
            Add endpoint
          </Button>
        ) : (
          <MissingCapability project={project} what="add, change or delete endpoints" capability="webhooks:manage" />
        )}
        <LiveBadge />
      </Group>
      <QueryStatus query={endpoints} loading="Loading endpoints" failed="The endpoints could not be loaded" />
      {endpoints.data?.length === 0 ? <NoEndpoints environment={environment} /> : null}
      {endpoints.data?.length ? (
        <Stack gap="xs" hiddenFrom="sm">
          {endpoints.data.map((endpoint) => (
            <EndpointCard key={endpoint.id} project={project} endpoint={endpoint} environment={environment} />
          ))}
        </Stack>
      ) : null}
      {endpoints.data?.length ? (
        <Table.ScrollContainer minWidth={760} visibleFrom="sm">
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>URL</Table.Th>
                <Table.Th>Events</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Failures in a row</Table.Th>
                <Table.Th>Added</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {endpoints.data.map((endpoint) => (
                <EndpointRow key={endpoint.id} project={project} endpoint={endpoint} environment={environment} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <AddEndpoint project={project} environment={environment} opened={adding} onClose={() => setAdding(false)} />
      {environment === 'production' ? null : (
        <>
          <TriggerEvent project={project} environment={environment} />
          <TestClock project={project} environment={environment} />
        </>
      )}
    </>
  );
}

/** What to do next: add an endpoint here, or let the CLI forward events to the app on this machine. */
function NoEndpoints({ environment }: { environment: Environment }) {
  const flag = environment === 'development' ? '' : ` --environment ${environment}`;
  return (
    <Paper withBorder p="lg">
      <Stack gap={6}>
        <Text fw={500}>No {environmentLabel(environment).toLowerCase()} webhook endpoints yet</Text>
        <Text size="sm" c="dimmed">
          Add one, or run <Code>switchboard webhooks listen{flag} --forward-to http://localhost:3000/webhooks</Code> to
          forward this environment’s events, signed, to your app while the command runs.
        </Text>
      </Stack>
    </Paper>
  );
}

/** What a row, a card and their link need to show one endpoint and reach its page. */
interface EndpointProps {
  project: Project;
  endpoint: WebhookEndpoint;
  environment: Environment;
}

/** An endpoint on a narrow screen, where the table's columns would not fit: the same facts, one under another. */
function EndpointCard({ project, endpoint, environment }: EndpointProps) {
  return (
    <Paper withBorder p="sm" component="article" aria-label={`Endpoint ${endpoint.url}`}>
      <Stack gap={6}>
        <EndpointLink project={project} endpoint={endpoint} environment={environment} />
        <Group gap="xs">
          <EndpointStatusBadge endpoint={endpoint} />
          <Text size="xs" c="dimmed">
            {endpoint.consecutiveFailures} failures in a row · added <Time value={endpoint.createdAt} />
          </Text>
        </Group>
        {endpoint.disabledReason ? (
          <Text size="xs" c="dimmed">
            {endpoint.disabledReason}
          </Text>
        ) : null}
        <EventList events={endpoint.events} />
      </Stack>
    </Paper>
  );
}

/** The endpoint's URL, linking to its page, over its id: the head of a table row and of a card alike. */
function EndpointLink({ project, endpoint, environment }: EndpointProps) {
  return (
    <>
      <AnchorLink
        to="/projects/$projectId/webhooks/$webhookId"
        params={{ projectId: project.id, webhookId: endpoint.id }}
        search={{ env: environment }}
        style={{ wordBreak: 'break-all' }}
      >
        {endpoint.url}
      </AnchorLink>
      <Text size="xs" c="dimmed" ff="monospace">
        {endpoint.id}
      </Text>
    </>
  );
}

function EndpointRow({ project, endpoint, environment }: EndpointProps) {
  return (
    <Table.Tr>
      <Table.Td maw={360}>
        <EndpointLink project={project} endpoint={endpoint} environment={environment} />
      </Table.Td>
      <Table.Td>
        <EventList events={endpoint.events} />
      </Table.Td>
      <Table.Td>
        <EndpointStatusBadge endpoint={endpoint} />
        {endpoint.disabledReason ? (
          <Text size="xs" c="dimmed">
            {endpoint.disabledReason}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>{endpoint.consecutiveFailures}</Table.Td>
      <Table.Td>
        <Time value={endpoint.createdAt} />
      </Table.Td>
    </Table.Tr>
  );
}

function AddEndpoint({
  project,
  environment,
  opened,
  onClose,
}: {
  project: Project;
  environment: Environment;
  opened: boolean;
  onClose(): void;
}) {
  const register = useRegisterWebhook(project.id, environment);
  const [added, setAdded] = useState<RegisteredWebhook | null>(null);
  const close = () => {
    setAdded(null);
    register.reset();
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      size="lg"
      title={added ? 'Endpoint added' : `Add a ${environmentLabel(environment).toLowerCase()} endpoint`}
    >
      {added ? (
        <SecretOnce
          secret={added.secret}
          label="The endpoint’s signing secret"
          copyLabel="Copy signing secret"
          lost="The server needs it to sign, so it keeps it encrypted, but never shows it again. If you lose it, delete the endpoint and add it again."
        >
          <Text size="sm">
            Give it to your handler, e.g. as <Code>SWITCHBOARD_WEBHOOK_SECRET</Code>: it checks each delivery’s{' '}
            <Code>Service-Signature</Code> with it (the endpoint’s page has the code).
          </Text>
          <Group justify="flex-end">
            <AnchorLink
              to="/projects/$projectId/webhooks/$webhookId"
              params={{ projectId: project.id, webhookId: added.id }}
              search={{ env: environment }}
              onClick={close}
            >
              Open the endpoint
            </AnchorLink>
            <Button variant="default" onClick={close}>
              I have copied it
            </Button>
          </Group>
        </SecretOnce>
      ) : (
        <Stack>
          <EndpointForm
            initial={{ url: '', events: [] }}
            submitLabel="Add endpoint"
            pending={register.isPending}
            onSubmit={(values) => register.mutate(values, { onSuccess: setAdded })}
          />
          <ErrorAlert title="The endpoint was not added" error={register.error} />
        </Stack>
      )}
    </Modal>
  );
}
