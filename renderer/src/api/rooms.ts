import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateRoomInput, CreateRtcTokenInput, Environment, LiveEvent } from '../sdk';
import { useClient } from '../session/session-context';
import { useRefreshOn } from './live-events';
import { SHOWN_INLINE } from './query-client';

const roomKeys = {
  all: (projectId: string, environment: Environment) => ['rooms', projectId, environment] as const,
  page: (projectId: string, environment: Environment, cursor: string | undefined) =>
    ['rooms', projectId, environment, 'page', cursor ?? null] as const,
  one: (projectId: string, environment: Environment, roomId: string) =>
    ['rooms', projectId, environment, 'room', roomId] as const,
};

/** A signaling participant joining or leaving (of `roomId`, or of any room). */
const signalingIn = (roomId?: string) => (event: LiveEvent) =>
  (event.type === 'connection.opened' || event.type === 'connection.closed') &&
  event.data.connection.kind === 'signaling' &&
  (roomId === undefined || event.data.connection.roomId === roomId);

const roomsChanged = (event: LiveEvent) =>
  event.type === 'room.created' || event.type === 'room.deleted' || signalingIn()(event);

/** One page of the environment's rooms, newest first; refreshed live as rooms come and go and people join. */
export function useRoomsPage(projectId: string, environment: Environment, limit: number, cursor?: string) {
  const client = useClient();
  useRefreshOn(roomsChanged, roomKeys.all(projectId, environment));
  return useQuery({
    queryKey: [...roomKeys.page(projectId, environment, cursor), limit],
    queryFn: () => client.rooms.list(projectId, { environment, limit, cursor }),
    placeholderData: keepPreviousData,
  });
}

export function useRoom(projectId: string, environment: Environment, roomId: string) {
  const client = useClient();
  return useQuery({
    queryKey: roomKeys.one(projectId, environment, roomId),
    queryFn: () => client.rooms.get(projectId, roomId, { environment }),
  });
}

/**
 * Who is in the room now. `connection.opened` and `connection.closed` of the live event stream name the room of a
 * signaling connection: the list is read again then, never polled.
 */
export function useParticipants(projectId: string, environment: Environment, roomId: string) {
  const client = useClient();
  const key = [...roomKeys.one(projectId, environment, roomId), 'participants'];
  useRefreshOn(signalingIn(roomId), key);
  return useQuery({
    queryKey: key,
    queryFn: async () => (await client.rooms.participants(projectId, roomId, { environment })).data,
  });
}

/** How often the room page reads its media counters: the server's bitrate spans the last 5 s, sampled each second. */
export const ROOM_MEDIA_REFRESH_MS = 2000;

/** Each participant's tracks as the server sees them: read again every 2 s while the page is open. */
export function useRoomMedia(projectId: string, environment: Environment, roomId: string) {
  const client = useClient();
  return useQuery({
    queryKey: [...roomKeys.one(projectId, environment, roomId), 'media'],
    queryFn: () => client.rooms.media(projectId, roomId, { environment }),
    refetchInterval: (query) => (query.state.data?.mode === 'mesh' ? false : ROOM_MEDIA_REFRESH_MS),
  });
}

export function useCreateRoom(projectId: string, environment: Environment) {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    ...SHOWN_INLINE,
    mutationFn: (input: CreateRoomInput) => client.rooms.create(projectId, input, { environment }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roomKeys.all(projectId, environment) }),
  });
}

export function useDeleteRoom(projectId: string, environment: Environment) {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (roomId: string) => client.rooms.delete(projectId, roomId, { environment }),
    onSuccess: (_, roomId) => {
      queryClient.removeQueries({ queryKey: roomKeys.one(projectId, environment, roomId) });
      return queryClient.invalidateQueries({ queryKey: roomKeys.all(projectId, environment) });
    },
  });
}

/** Mints an RTC token with the session (audited): the token playground and the test call. */
export function useMintRtcToken(projectId: string, environment: Environment, roomId: string) {
  const client = useClient();
  return useMutation({
    ...SHOWN_INLINE,
    mutationFn: (input: CreateRtcTokenInput) => client.rooms.createRtcToken(projectId, roomId, input, { environment }),
  });
}
