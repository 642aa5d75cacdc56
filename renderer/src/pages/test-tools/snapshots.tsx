import { Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { can } from '../../api/projects';
import { useSnapshotChanges, useSnapshots } from '../../api/snapshots';
import { confirmDanger } from '../../components/confirm';
import { ErrorAlert, QueryStatus } from '../../components/error-alert';
import { bytes } from '../../components/figure';
import { Time } from '../../components/time';
import { type Environment, type EnvironmentSnapshot, type Project, resetCounts } from '../../sdk';
import { environmentLabel, MissingCapability } from '../../shell/project-page';

/** The kinds a snapshot holds any of, with how many: `Rooms 3 · Messages 120`. */
const holding = (counts: EnvironmentSnapshot['counts']) => {
  const some = resetCounts(counts).filter(([, count]) => count > 0);
  return some.length
    ? some.map(([label, count]) => `${label} ${count.toLocaleString('en-US')}`).join(' · ')
    : 'Nothing';
};

/**
 * Named snapshots of development or staging: save what it holds now, and go back to it later (a restore replaces
 * what the environment holds, as a reset would, and disconnects its clients).
 */
export function Snapshots({ project, environment }: { project: Project; environment: Environment }) {
  const allowed = can(project, 'project:write');
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Snapshots
        </Title>
        <Text size="sm">
          Save what {environmentLabel(environment).toLowerCase()} holds (what a reset would remove: rooms, chat with its
          attachments, live streams, webhook deliveries, observability data) and restore it later, exactly as saved.
          Keys, webhook endpoints and members are not part of a snapshot.
        </Text>
        {allowed ? (
          <SaveSnapshot project={project} environment={environment} />
        ) : (
          <MissingCapability project={project} what="save or restore snapshots" capability="project:write" />
        )}
        <SnapshotList project={project} environment={environment} />
      </Stack>
    </Paper>
  );
}

function SaveSnapshot({ project, environment }: { project: Project; environment: Environment }) {
  const { save } = useSnapshotChanges(project.id, environment);
  const [name, setName] = useState('');
  return (
    <>
      <Group align="flex-end" gap="xs">
        <TextInput
          label="Snapshot name"
          placeholder="seeded"
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          w={220}
        />
        <Button
          disabled={!name.trim()}
          loading={save.isPending}
          onClick={() =>
            save.mutate(
              { name: name.trim() },
              {
                onSuccess: (saved) => {
                  setName('');
                  notifications.show({ color: 'green', message: `Saved ${saved.name}: ${holding(saved.counts)}` });
                },
              },
            )
          }
        >
          Save snapshot
        </Button>
      </Group>
      <ErrorAlert title="The snapshot was not saved" error={save.error} />
    </>
  );
}

function SnapshotList({ project, environment }: { project: Project; environment: Environment }) {
  const snapshots = useSnapshots(project.id, environment);
  const { restore, remove } = useSnapshotChanges(project.id, environment);
  const allowed = can(project, 'project:write');
  const label = environmentLabel(environment);
  if (!snapshots.data)
    return <QueryStatus query={snapshots} loading="Loading snapshots" failed="The snapshots could not be loaded" />;
  if (snapshots.data.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No snapshots of {label.toLowerCase()} yet.
      </Text>
    );
  const restoreNow = (name: string) =>
    restore.mutate(name, {
      onSuccess: (restored) =>
        notifications.show({ color: 'green', message: `${label} is back to ${restored.snapshot}` }),
    });
  return (
    <Stack gap="xs">
      <Table aria-label={`Snapshots of ${label}`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Saved</Table.Th>
            <Table.Th>Holds</Table.Th>
            <Table.Th>Size</Table.Th>
            {allowed ? <Table.Th /> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {snapshots.data.map((snapshot) => (
            <Table.Tr key={snapshot.name}>
              <Table.Td ff="monospace">{snapshot.name}</Table.Td>
              <Table.Td>
                <Time value={snapshot.createdAt} />
                {snapshot.createdBy ? (
                  <Text size="xs" c="dimmed">
                    {snapshot.createdBy}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{holding(snapshot.counts)}</Text>
              </Table.Td>
              <Table.Td>{bytes(snapshot.sizeBytes)}</Table.Td>
              {allowed ? (
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Button
                      size="xs"
                      variant="light"
                      aria-label={`Restore ${snapshot.name}`}
                      loading={restore.isPending && restore.variables === snapshot.name}
                      onClick={() =>
                        confirmDanger({
                          title: `Restore ${snapshot.name} into ${label}?`,
                          message:
                            `What ${label.toLowerCase()} holds now is replaced by the snapshot, and its connected ` +
                            'clients are disconnected, as in a reset. Keys, webhook endpoints and members stay.',
                          confirm: `Restore ${snapshot.name}`,
                          onConfirm: () => restoreNow(snapshot.name),
                        })
                      }
                    >
                      Restore
                    </Button>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      aria-label={`Delete ${snapshot.name}`}
                      loading={remove.isPending && remove.variables === snapshot.name}
                      onClick={() => remove.mutate(snapshot.name)}
                    >
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <ErrorAlert title="The snapshot was not restored" error={restore.error} />
      <ErrorAlert title="The snapshot was not deleted" error={remove.error} />
    </Stack>
  );
}
