import { Badge, Code, Group, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { ROOM_MEDIA_REFRESH_MS, useRoomMedia } from '../../api/rooms';
import { QueryStatus } from '../../components/error-alert';
import type { Environment, Room, RoomMediaParticipant, TrackMedia } from '../../sdk';

/** Bits per second as a person reads a bitrate: 64 kbps, 1.2 Mbps. */
function bitrate(bps: number): string {
  if (bps < 1000) return `${bps} bps`;
  if (bps < 1_000_000) return `${Math.round(bps / 1000)} kbps`;
  return `${(bps / 1_000_000).toFixed(1)} Mbps`;
}

/**
 * Each participant's tracks as the server sees them (media through the server: `serve --rtc-media sfu`), read again
 * every 2 s: what it sends and receives, the bitrate, and the packets lost. With the mesh, a sentence: the server
 * never sees the media.
 */
export function RoomMediaPanel({
  projectId,
  environment,
  room,
}: {
  projectId: string;
  environment: Environment;
  room: Room;
}) {
  const media = useRoomMedia(projectId, environment, room.id);
  const rows = media.data?.participants.flatMap((participant) =>
    participant.tracks.map((track, i) => ({ participant, track, first: i === 0 })),
  );
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h4" id="room-media-heading">
            Media
          </Title>
          {media.data?.mode === 'sfu' ? (
            <Tooltip label={`Read again every ${ROOM_MEDIA_REFRESH_MS / 1000} s; bitrates span the last 5 s.`}>
              <Badge variant="dot" color="green" tt="none">
                Every {ROOM_MEDIA_REFRESH_MS / 1000} s
              </Badge>
            </Tooltip>
          ) : null}
        </Group>
        <QueryStatus query={media} loading="Loading the room’s media" failed="The room’s media could not be loaded" />
        {media.data?.mode === 'mesh' ? (
          <Text size="sm" c="dimmed">
            Media does not go through this server: participants send it to each other (peer to peer), so the server has
            no tracks, bitrate or loss to show. Start the server with <Code>--rtc-media sfu</Code> to see them here.
          </Text>
        ) : null}
        {media.data?.mode === 'sfu' && rows?.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nobody sends or receives media in this room now.
          </Text>
        ) : null}
        {rows?.length ? (
          <Table.ScrollContainer minWidth={640}>
            <Table aria-labelledby="room-media-heading">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Participant</Table.Th>
                  <Table.Th>Track</Table.Th>
                  <Table.Th ta="right">Bitrate</Table.Th>
                  <Table.Th ta="right">Packets</Table.Th>
                  <Table.Th ta="right">Lost</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map(({ participant, track, first }) => (
                  <TrackRow
                    key={`${participant.connectionId}-${track.direction}-${track.from}-${track.kind}`}
                    participant={participant}
                    track={track}
                    first={first}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
      </Stack>
    </Paper>
  );
}

function TrackRow({
  participant,
  track,
  first,
}: {
  participant: RoomMediaParticipant;
  track: TrackMedia;
  first: boolean;
}) {
  const what = track.direction === 'publish' ? `sends ${track.kind}` : `receives ${track.kind} from ${track.from}`;
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={first ? 500 : undefined} c={first ? undefined : 'dimmed'}>
          {participant.identity}
        </Text>
      </Table.Td>
      <Table.Td>{what}</Table.Td>
      <Table.Td ta="right">{bitrate(track.bitrate)}</Table.Td>
      <Table.Td ta="right">{track.packets.toLocaleString('en')}</Table.Td>
      <Table.Td ta="right">
        {track.packetsLost.toLocaleString('en')} ({track.lossPercent}%)
      </Table.Td>
    </Table.Tr>
  );
}
