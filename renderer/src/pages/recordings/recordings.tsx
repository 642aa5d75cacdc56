import { Badge, Button, Group, NumberInput, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { can } from '../../api/projects';
import { useRecordingChanges, useRecordings } from '../../api/recordings';
import { ErrorAlert, QueryStatus } from '../../components/error-alert';
import { bytes, duration } from '../../components/figure';
import { AnchorLink } from '../../components/links';
import { Time } from '../../components/time';
import type { Environment, Project, Recording } from '../../sdk';
import { environmentLabel, MissingCapability, ProjectPage } from '../../shell/project-page';

const MIB = 1024 * 1024;

export function RecordingsPage() {
  return (
    <ProjectPage
      title="Recordings"
      environmentScoped
      description={
        <>
          Record this environment’s traffic while your app or a test runs: REST calls made with its keys and tokens,
          realtime and signaling frames, webhook attempts. Read it here as a timeline, or download it as a HAR file for
          your browser’s developer tools. Secrets are replaced by <code>[redacted]</code> before anything is stored.
        </>
      }
    >
      {(project, environment) => (
        <Stack gap="md">
          <StartRecording project={project} environment={environment} />
          <RecordingList project={project} environment={environment} />
        </Stack>
      )}
    </ProjectPage>
  );
}

function StartRecording({ project, environment }: { project: Project; environment: Environment }) {
  const { start } = useRecordingChanges(project.id, environment);
  const recordings = useRecordings(project.id, environment);
  // One recording at a time per environment: the server would answer 409, so say why before the click.
  const running = recordings.data?.some((recording) => recording.state === 'recording') ?? false;
  const [maxMib, setMaxMib] = useState<number | string>(10);
  const [maxMinutes, setMaxMinutes] = useState<number | string>(15);
  if (!can(project, 'project:write'))
    return <MissingCapability project={project} what="start or stop recordings" capability="project:write" />;
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Start a recording of {environmentLabel(environment).toLowerCase()}
        </Title>
        <Text size="sm" c="dimmed">
          It runs until you stop it or it reaches a limit. One recording at a time per environment.
          {environment === 'production'
            ? ' Production is recorded only when the server was started with --allow-production-recording; otherwise the server refuses.'
            : ''}
        </Text>
        <Group align="flex-end" gap="xs">
          <NumberInput label="Size limit (MB)" min={1} max={100} value={maxMib} onChange={setMaxMib} w={150} />
          <NumberInput
            label="Time limit (minutes)"
            min={1}
            max={24 * 60}
            value={maxMinutes}
            onChange={setMaxMinutes}
            w={170}
          />
          <Button
            loading={start.isPending}
            disabled={running}
            onClick={() =>
              start.mutate(
                {
                  maxBytes: Math.round(Number(maxMib) * MIB),
                  maxDurationSeconds: Math.round(Number(maxMinutes) * 60),
                },
                { onSuccess: () => notifications.show({ color: 'green', message: 'Recording started' }) },
              )
            }
          >
            Start recording
          </Button>
        </Group>
        {running && <Text size="sm">A recording of this environment is running: stop it below to start another.</Text>}
        <ErrorAlert title="The recording did not start" error={start.error} />
      </Stack>
    </Paper>
  );
}

const END_REASONS: Record<NonNullable<Recording['endReason']>, string> = {
  stopped: 'Stopped',
  size_limit: 'Size limit reached',
  duration_limit: 'Time limit reached',
};

function StateBadge({ recording }: { recording: Recording }) {
  if (recording.state === 'recording')
    return (
      <Badge color="red" variant="dot" style={{ minWidth: 'max-content' }}>
        Recording
      </Badge>
    );
  return (
    <Badge color="gray" variant="light" style={{ minWidth: 'max-content' }}>
      {recording.endReason ? END_REASONS[recording.endReason] : 'Stopped'}
    </Badge>
  );
}

function RecordingList({ project, environment }: { project: Project; environment: Environment }) {
  const recordings = useRecordings(project.id, environment);
  const { stop, remove, download } = useRecordingChanges(project.id, environment);
  const allowed = can(project, 'project:write');
  const label = environmentLabel(environment);
  if (!recordings.data)
    return <QueryStatus query={recordings} loading="Loading recordings" failed="The recordings could not be loaded" />;
  if (recordings.data.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No recordings of {label.toLowerCase()} yet.
      </Text>
    );
  return (
    <Table aria-label={`Recordings of ${label}`} verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Recording</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th>Started</Table.Th>
          <Table.Th>Ended</Table.Th>
          <Table.Th>Entries</Table.Th>
          <Table.Th>Size</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {recordings.data.map((recording) => (
          <Table.Tr key={recording.id}>
            <Table.Td>
              <AnchorLink
                to="/projects/$projectId/recordings/$recordingId"
                params={{ projectId: project.id, recordingId: recording.id }}
                search={(prev) => prev}
                ff="monospace"
                size="sm"
                aria-label={`Timeline of ${recording.id}`}
              >
                {recording.id}
              </AnchorLink>
            </Table.Td>
            <Table.Td>
              <StateBadge recording={recording} />
            </Table.Td>
            <Table.Td>
              <Time value={recording.startedAt} seconds />
            </Table.Td>
            <Table.Td>
              <Time value={recording.endedAt} seconds empty="—" />
            </Table.Td>
            <Table.Td>{recording.entries.toLocaleString('en-US')}</Table.Td>
            <Table.Td>
              {bytes(recording.bytes)}
              <Text size="xs" c="dimmed">
                of {bytes(recording.maxBytes)}, {duration(recording.maxDurationSeconds)} at most
              </Text>
            </Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap" justify="flex-end">
                {allowed && recording.state === 'recording' ? (
                  <Button
                    size="xs"
                    color="red"
                    aria-label={`Stop ${recording.id}`}
                    loading={stop.isPending && stop.variables === recording.id}
                    onClick={() => stop.mutate(recording.id)}
                  >
                    Stop
                  </Button>
                ) : null}
                <Button
                  size="xs"
                  variant="light"
                  aria-label={`Download HAR of ${recording.id}`}
                  loading={download.isPending && download.variables === recording.id}
                  onClick={() => download.mutate(recording.id)}
                >
                  Download HAR
                </Button>
                {allowed ? (
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    aria-label={`Delete ${recording.id}`}
                    loading={remove.isPending && remove.variables === recording.id}
                    onClick={() => remove.mutate(recording.id)}
                  >
                    Delete
                  </Button>
                ) : null}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
