import { keepPreviousData, type MutationMeta, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Environment, LiveStreamParticipantQuery, ProjectAddHostInput } from '../sdk';
import { useClient } from '../session/session-context';
import { SHOWN_INLINE } from './query-client';

/** Query keys: everything of one project environment's streams sits under `streams`, so a change refreshes it all. */
export const liveStreamKeys = {
  all: (projectId: string, environment: Environment) => ['live-streams', projectId, environment] as const,
  page: (projectId: string, environment: Environment, cursor: string | undefined) =>
    [...liveStreamKeys.all(projectId, environment), 'page', cursor ?? null] as const,
  one: (projectId: string, environment: Environment, streamId: string) =>
    [...liveStreamKeys.all(projectId, environment), 'stream', streamId] as const,
  participants: (projectId: string, environment: Environment, streamId: string) =>
    [...liveStreamKeys.one(projectId, environment, streamId), 'participants'] as const,
};

export const LIVE_STREAMS_PAGE_SIZE = 25;

export function useLiveStreamsPage(projectId: string, environment: Environment, cursor: string | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: liveStreamKeys.page(projectId, environment, cursor),
    queryFn: () => client.liveStreams.list(projectId, { environment, cursor, limit: LIVE_STREAMS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
}

export function useLiveStream(projectId: string, environment: Environment, streamId: string) {
  const client = useClient();
  return useQuery({
    queryKey: liveStreamKeys.one(projectId, environment, streamId),
    queryFn: () => client.liveStreams.get(projectId, streamId, { environment }),
  });
}

export function useParticipants(
  projectId: string,
  environment: Environment,
  streamId: string,
  query: LiveStreamParticipantQuery,
) {
  const client = useClient();
  return useQuery({
    queryKey: [...liveStreamKeys.participants(projectId, environment, streamId), query],
    queryFn: () => client.liveStreams.participants(projectId, streamId, { ...query, environment }),
    placeholderData: keepPreviousData,
  });
}

/** A change to a stream: its list, page and participants are refreshed (they all sit under the same key). */
function useStreamMutation<I, O>(
  projectId: string,
  environment: Environment,
  run: (input: I) => Promise<O>,
  options: { meta?: MutationMeta } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: liveStreamKeys.all(projectId, environment) }),
  });
}

export function useCreateLiveStream(projectId: string, environment: Environment) {
  const client = useClient();
  return useStreamMutation(
    projectId,
    environment,
    (title: string) => client.liveStreams.create(projectId, { title }, { environment }),
    SHOWN_INLINE,
  );
}

export function useRenameLiveStream(projectId: string, environment: Environment, streamId: string) {
  const client = useClient();
  return useStreamMutation(
    projectId,
    environment,
    (title: string) => client.liveStreams.update(projectId, streamId, { title }, { environment }),
    SHOWN_INLINE,
  );
}

export function useEndLiveStream(projectId: string, environment: Environment, streamId: string) {
  const client = useClient();
  return useStreamMutation(projectId, environment, () => client.liveStreams.end(projectId, streamId, { environment }));
}

export function useAddHost(projectId: string, environment: Environment, streamId: string) {
  const client = useClient();
  return useStreamMutation(
    projectId,
    environment,
    (input: ProjectAddHostInput) => client.liveStreams.addHost(projectId, streamId, input, { environment }),
    SHOWN_INLINE,
  );
}

export function useCreateViewerToken(projectId: string, environment: Environment, streamId: string) {
  const client = useClient();
  return useStreamMutation(
    projectId,
    environment,
    (identity: string) => client.liveStreams.createViewerToken(projectId, streamId, { identity }, { environment }),
    SHOWN_INLINE,
  );
}

export function useRemoveHost(projectId: string, environment: Environment, streamId: string) {
  const client = useClient();
  return useStreamMutation(projectId, environment, (identity: string) =>
    client.liveStreams.removeHost(projectId, streamId, identity, { environment }),
  );
}
