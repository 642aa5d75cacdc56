import { Alert, Button, Group, List, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useResetEnvironment } from '../api/environments';
import { can } from '../api/projects';
import { ErrorAlert } from '../components/error-alert';
import { type Environment, type EnvironmentReset, type Project, resetCounts } from '../sdk';
import { environmentLabel, MissingCapability } from '../shell/project-page';

/**
 * Empties development or staging between test runs (the testing tools' environment: production is never offered, and
 * the server refuses it anyway). After a reset, what it removed stays on screen.
 */
export function ResetEnvironment({ project, environment }: { project: Project; environment: Environment }) {
  const [opened, { open, close }] = useDisclosure(false);
  const reset = useResetEnvironment(project.id);
  const allowed = can(project, 'project:write');
  const label = environmentLabel(environment);
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Reset an environment
        </Title>
        <Text size="sm">
          For a clean start between test runs: deletes the environment’s rooms, chat (conversations, messages,
          attachments), live streams, webhook deliveries and observability data (connections, telemetry, metrics,
          errors), and disconnects its clients. Its API keys, webhook endpoints, the members and the audit log stay.
        </Text>
        {allowed ? (
          <Button color="red" variant="outline" w="fit-content" onClick={open}>
            Reset {label}…
          </Button>
        ) : (
          <MissingCapability project={project} what="reset an environment" capability="project:write" />
        )}
        <ErrorAlert title="The environment was not reset" error={reset.error} />
        {reset.data ? <ResetResult reset={reset.data} /> : null}
      </Stack>
      <Modal opened={opened} onClose={close} title={`Reset ${label} of ${project.name}?`}>
        <Stack>
          <Text size="sm">
            Everything your app made in <strong>{label}</strong> goes: rooms, conversations and messages, attachments,
            live streams, webhook deliveries, connection records, telemetry, metrics and errors. Its connected clients
            are disconnected. API keys, webhook endpoints, members and the audit log stay. This cannot be undone.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={reset.isPending}
              onClick={() =>
                reset.mutate(environment, {
                  onSuccess: () => {
                    close();
                    notifications.show({ color: 'green', message: `${label} was reset` });
                  },
                  onError: close,
                })
              }
            >
              Reset {label}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

/** What the reset removed: each kind it found, with how many (the kinds it found none of are left out). */
function ResetResult({ reset }: { reset: EnvironmentReset }) {
  const found = resetCounts(reset.removed).filter(([, count]) => count > 0);
  const name = environmentLabel(reset.environment);
  return (
    <Alert color="green" title={`${name} was reset`}>
      {found.length === 0 ? (
        <Text size="sm">It held nothing to remove.</Text>
      ) : (
        <List size="sm" aria-label={`Removed from ${name}`}>
          {found.map(([label, count]) => (
            <List.Item key={label}>
              {label}: {count.toLocaleString('en-US')}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
