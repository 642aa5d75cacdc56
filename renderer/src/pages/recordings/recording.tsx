import {
  Badge,
  Breadcrumbs,
  Code,
  Drawer,
  Group,
  Select,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useParams } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useRecording, useRecordingHar } from '../../api/recordings';
import { QueryStatus } from '../../components/error-alert';
import { Facts } from '../../components/facts';
import { bytes } from '../../components/figure';
import { AnchorLink } from '../../components/links';
import { Time } from '../../components/time';
import type { Environment, Project } from '../../sdk';
import { ProjectPage } from '../../shell/project-page';
import { type HarHeader, type TimelineItem, type TimelineKind, timelineOf } from './timeline';

export function RecordingPage() {
  const { recordingId } = useParams({ from: '/signed-in/projects/$projectId/recordings/$recordingId' });
  return (
    <ProjectPage title={`Recording ${recordingId}`} environmentScoped>
      {(project, environment) => <Recording project={project} environment={environment} recordingId={recordingId} />}
    </ProjectPage>
  );
}

const KINDS: Record<TimelineKind, { label: string; color: string }> = {
  rest: { label: 'REST', color: 'blue' },
  webhook: { label: 'Webhook', color: 'grape' },
  opened: { label: 'Socket', color: 'gray' },
  frame: { label: 'Frame', color: 'cyan' },
  closed: { label: 'Socket', color: 'gray' },
};

/** Times to the millisecond, on a 24-hour clock: entries a few milliseconds apart must read apart. */
const TIME: Intl.DateTimeFormatOptions = {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  fractionalSecondDigits: 3,
  hourCycle: 'h23',
};
/** The wall time of an entry (the recording's dates are above the timeline). */
const wallTime = (ms: number) => new Date(ms).toLocaleTimeString(undefined, TIME);
/** The test clock may run days ahead: with its date. */
const clockTime = (ms: number) => new Date(ms).toLocaleString(undefined, { month: 'short', day: 'numeric', ...TIME });

function Recording({
  project,
  environment,
  recordingId,
}: {
  project: Project;
  environment: Environment;
  recordingId: string;
}) {
  const recording = useRecording(project.id, environment, recordingId);
  const har = useRecordingHar(project.id, environment, recordingId);
  const timeline = useMemo(() => (har.data ? timelineOf(har.data) : undefined), [har.data]);
  const [shown, setShown] = useState<string>('all');
  const [opened, setOpened] = useState<TimelineItem | null>(null);
  const items = (timeline?.items ?? []).filter((item) =>
    shown === 'all'
      ? true
      : shown === 'rest' || shown === 'webhook'
        ? item.kind === shown
        : item.connection?.id === shown,
  );
  return (
    <Stack gap="sm">
      <Breadcrumbs>
        <AnchorLink to="/projects/$projectId/recordings" params={{ projectId: project.id }} search={(prev) => prev}>
          Recordings
        </AnchorLink>
        <Text ff="monospace" size="sm">
          {recordingId}
        </Text>
      </Breadcrumbs>
      <QueryStatus query={recording} loading="Loading the recording" failed="The recording could not be loaded" />
      {recording.data ? (
        <Text size="sm">
          {recording.data.state === 'recording' ? 'Recording since ' : 'Recorded from '}
          <Time value={recording.data.startedAt} seconds />
          {recording.data.endedAt ? (
            <>
              {' to '}
              <Time value={recording.data.endedAt} seconds />
            </>
          ) : null}
          : {recording.data.entries.toLocaleString('en-US')} entries, {bytes(recording.data.bytes)}.
          {recording.data.state === 'recording' ? ' The timeline shows what it took when the page was opened.' : ''}
        </Text>
      ) : null}
      <QueryStatus query={har} loading="Loading the timeline" failed="The timeline could not be loaded" />
      {timeline ? (
        <>
          <Group justify="space-between" align="flex-end">
            <Title order={2} size="h4">
              Timeline
            </Title>
            <Select
              label="Show"
              w={340}
              value={shown}
              onChange={(value) => setShown(value ?? 'all')}
              allowDeselect={false}
              data={[
                { value: 'all', label: 'Everything, in time order' },
                { value: 'rest', label: 'REST calls' },
                { value: 'webhook', label: 'Webhook attempts' },
                ...timeline.connections.map((connection) => ({
                  value: connection.id,
                  label: `${connection.socket} ${connection.id} (${connection.frames} frames)`,
                })),
              ]}
            />
          </Group>
          {items.length === 0 ? (
            <Text size="sm" c="dimmed">
              Nothing recorded here.
            </Text>
          ) : (
            <Table aria-label="Timeline" verticalSpacing={4} highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Time</Table.Th>
                  <Table.Th>Test clock</Table.Th>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>What</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Connection</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((item) => (
                  <Table.Tr key={item.key}>
                    <Table.Td ff="monospace" fz="xs" style={{ whiteSpace: 'nowrap' }}>
                      {wallTime(item.at)}
                    </Table.Td>
                    <Table.Td ff="monospace" fz="xs" style={{ whiteSpace: 'nowrap' }}>
                      {clockTime(item.testClockAt)}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={KINDS[item.kind].color} variant="light" style={{ minWidth: 'max-content' }}>
                        {KINDS[item.kind].label}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <UnstyledButton
                        onClick={() => setOpened(item)}
                        ff="monospace"
                        fz="sm"
                        c="var(--mantine-color-anchor)"
                        style={{ wordBreak: 'break-all' }}
                      >
                        {item.label}
                      </UnstyledButton>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c={item.failed ? 'red' : undefined} fw={item.failed ? 600 : undefined}>
                        {item.outcome}
                      </Text>
                    </Table.Td>
                    <Table.Td ff="monospace" fz="xs">
                      {item.connection?.id ?? ''}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </>
      ) : null}
      <Drawer
        opened={opened !== null}
        onClose={() => setOpened(null)}
        position="right"
        size="xl"
        title={opened ? `${KINDS[opened.kind].label}: ${opened.label}` : ''}
      >
        {opened ? <ItemDetails item={opened} /> : null}
      </Drawer>
    </Stack>
  );
}

/** A body as recorded; JSON indented for reading. */
function Body({ label, text }: { label: string; text: string | undefined }) {
  if (!text)
    return (
      <Text size="sm" c="dimmed">
        {label}: empty
      </Text>
    );
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Not JSON: as recorded.
  }
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Code block aria-label={label} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {shown}
      </Code>
    </Stack>
  );
}

function Headers({ label, headers }: { label: string; headers: HarHeader[] }) {
  if (headers.length === 0) return null;
  return (
    <Table aria-label={label} layout="fixed" fz="xs">
      <Table.Tbody>
        {headers.map((header) => (
          <Table.Tr key={`${header.name}: ${header.value}`}>
            <Table.Th scope="row" w={200} ff="monospace">
              {header.name}
            </Table.Th>
            <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
              {header.value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function ItemDetails({ item }: { item: TimelineItem }) {
  const { entry } = item;
  const when: [string, string][] = [
    ['Time', clockTime(item.at)],
    ['Test clock', clockTime(item.testClockAt)],
  ];
  if (item.kind === 'frame' && item.frame)
    return (
      <Stack gap="sm">
        <Facts
          label="Frame"
          rows={[
            ['Direction', item.outcome],
            ['Connection', `${item.connection?.socket} ${item.connection?.id}`],
            ...when,
          ]}
        />
        <Body label="Frame data" text={item.frame.data} />
      </Stack>
    );
  if (item.kind === 'opened' || item.kind === 'closed')
    return (
      <Facts
        label="Socket"
        rows={[
          ['Connection', `${item.connection?.socket} ${item.connection?.id}`],
          ['URL', entry.request.url],
          ['Frames', String(item.connection?.frames ?? 0)],
          [
            'Closed',
            entry._webSocketClose
              ? `code ${entry._webSocketClose.code}${entry._webSocketClose.reason ? `, ${entry._webSocketClose.reason}` : ''}`
              : 'Not while recording',
          ],
          ...when,
        ]}
      />
    );
  return (
    <Stack gap="sm">
      <Facts
        label="Exchange"
        rows={[
          ['Request', `${entry.request.method} ${entry.request.url}`],
          ['Status', item.outcome],
          ['Duration', `${entry.time} ms`],
          ...(entry._webhook
            ? ([
                ['Event', `${entry._webhook.eventType} (${entry._webhook.eventId})`],
                ['Delivery', entry._webhook.deliveryId],
              ] as [string, string][])
            : []),
          ...(entry._error ? ([['Error', entry._error]] as [string, string][]) : []),
          ...when,
        ]}
      />
      <Title order={3} size="h5">
        Request
      </Title>
      <Headers label="Request headers" headers={entry.request.headers} />
      <Body label="Request body" text={entry.request.postData?.text} />
      <Title order={3} size="h5">
        Response
      </Title>
      <Headers label="Response headers" headers={entry.response.headers} />
      <Body label="Response body" text={entry.response.content.text} />
    </Stack>
  );
}
