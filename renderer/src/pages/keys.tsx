import { Button, Group, Modal, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useCreateKey, useKeys, useRevokeKey } from '../api/keys';
import { can } from '../api/projects';
import { ApiKeyOnce } from '../components/api-key-once';
import { confirmDanger } from '../components/confirm';
import { ErrorAlert, QueryStatus } from '../components/error-alert';
import { Time } from '../components/time';
import type { ApiKey, CreatedApiKey, Environment, Project } from '../sdk';
import { environmentLabel, MissingCapability, ProjectPage } from '../shell/project-page';

export function KeysPage() {
  return (
    <ProjectPage
      title="API keys"
      environmentScoped
      description="Keys of your backend for the runtime API (rooms, chat, live streams). Each works in one environment."
    >
      {(project, environment) =>
        can(project, 'keys:read') ? (
          <KeysOfEnvironment key={environment} project={project} environment={environment} />
        ) : (
          <MissingCapability project={project} what="see API keys" capability="keys:read" />
        )
      }
    </ProjectPage>
  );
}

function KeysOfEnvironment({ project, environment }: { project: Project; environment: Environment }) {
  const keys = useKeys(project.id, environment);
  const manage = can(project, 'keys:manage');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  return (
    <>
      {manage ? (
        <CreateKeyForm project={project} environment={environment} onCreated={setCreated} />
      ) : (
        <MissingCapability project={project} what="create or revoke keys" capability="keys:manage" />
      )}
      <QueryStatus query={keys} loading="Loading keys" failed="The keys could not be loaded" />
      {keys.data?.length === 0 ? (
        <Text c="dimmed">No {environmentLabel(environment).toLowerCase()} keys yet.</Text>
      ) : null}
      {keys.data?.length ? (
        <Table.ScrollContainer minWidth={600}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Last used</Table.Th>
                {manage ? <Table.Th>Actions</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.data.map((key) => (
                <KeyRow key={key.id} project={project} apiKey={key} manage={manage} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <Modal
        opened={created !== null}
        onClose={() => setCreated(null)}
        title={created ? `Key “${created.name}” created (${environmentLabel(created.environment)})` : ''}
        size="lg"
      >
        {created ? (
          <Stack>
            <ApiKeyOnce secret={created.key} environment={created.environment} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setCreated(null)}>
                I have copied it
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </>
  );
}

function KeyRow({ project, apiKey, manage }: { project: Project; apiKey: ApiKey; manage: boolean }) {
  const revoke = useRevokeKey(project.id, apiKey.environment);
  const confirmRevoke = () =>
    confirmDanger({
      title: `Revoke “${apiKey.name}”?`,
      message: `Every request with this ${environmentLabel(apiKey.environment).toLowerCase()} key is refused from now on. This cannot be undone.`,
      confirm: 'Revoke key',
      onConfirm: () =>
        revoke.mutate(apiKey.id, {
          onSuccess: () => notifications.show({ color: 'green', message: `Revoked ${apiKey.name}` }),
        }),
    });
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={500}>
          {apiKey.name}
        </Text>
        <Text size="xs" c="dimmed" ff="monospace">
          {apiKey.id}
        </Text>
      </Table.Td>
      <Table.Td>
        <Time value={apiKey.createdAt} />
      </Table.Td>
      <Table.Td>
        <Time value={apiKey.lastUsedAt} />
      </Table.Td>
      {manage ? (
        <Table.Td>
          <Button
            size="xs"
            color="red"
            variant="subtle"
            onClick={confirmRevoke}
            loading={revoke.isPending}
            aria-label={`Revoke ${apiKey.name}`}
          >
            Revoke
          </Button>
        </Table.Td>
      ) : null}
    </Table.Tr>
  );
}

function CreateKeyForm({
  project,
  environment,
  onCreated,
}: {
  project: Project;
  environment: Environment;
  onCreated(key: CreatedApiKey): void;
}) {
  const create = useCreateKey(project.id, environment);
  const form = useForm({ initialValues: { name: '' } });
  return (
    <Paper withBorder p="md">
      <form
        onSubmit={form.onSubmit(({ name }) =>
          create.mutate(name, {
            onSuccess: (key) => {
              form.reset();
              onCreated(key);
            },
          }),
        )}
      >
        <Stack gap="xs">
          <Title order={2} size="h4">
            Create a {environmentLabel(environment).toLowerCase()} key
          </Title>
          <Group align="flex-end">
            <TextInput
              label="Key name"
              placeholder="backend"
              required
              style={{ flex: 1 }}
              {...form.getInputProps('name')}
            />
            <Button type="submit" loading={create.isPending} color={environment === 'production' ? 'red' : undefined}>
              Create key
            </Button>
          </Group>
          <ErrorAlert title="The key was not created" error={create.error} />
        </Stack>
      </form>
    </Paper>
  );
}
