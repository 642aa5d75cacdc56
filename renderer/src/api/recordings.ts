import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Environment, StartRecordingInput } from '../sdk';
import { useClient } from '../session/session-context';
import { useRefreshOn } from './live-events';
import { SHOWN_INLINE } from './query-client';

const recordingKeys = {
  all: (projectId: string, environment: Environment) => ['recordings', projectId, environment] as const,
  har: (projectId: string, environment: Environment, recordingId: string) =>
    [...recordingKeys.all(projectId, environment), recordingId, 'har'] as const,
};

/** While one runs, its size and entry count grow without an event: read them again this often. */
const RUNNING_REFRESH_MS = 2_000;

/**
 * The environment's recordings, newest first. Read again when one starts, ends (asked or at a limit) or is deleted
 * anywhere (the live event stream), and every two seconds while one is running.
 */
export function useRecordings(projectId: string, environment: Environment) {
  const client = useClient();
  useRefreshOn(['environment.recording_changed'], recordingKeys.all(projectId, environment));
  return useQuery({
    queryKey: recordingKeys.all(projectId, environment),
    queryFn: async () => (await client.recordings.list(projectId, { environment })).data,
    refetchInterval: (query) =>
      query.state.data?.some((recording) => recording.state === 'recording') ? RUNNING_REFRESH_MS : false,
  });
}

/** One recording's HAR document, for its timeline (what it took so far while it runs). */
export function useRecordingHar(projectId: string, environment: Environment, recordingId: string) {
  const client = useClient();
  return useQuery({
    queryKey: recordingKeys.har(projectId, environment, recordingId),
    queryFn: () => client.recordings.download(projectId, recordingId, { environment }),
  });
}

export function useRecording(projectId: string, environment: Environment, recordingId: string) {
  const client = useClient();
  useRefreshOn(['environment.recording_changed'], recordingKeys.all(projectId, environment));
  return useQuery({
    queryKey: [...recordingKeys.all(projectId, environment), recordingId],
    queryFn: () => client.recordings.get(projectId, recordingId, { environment }),
  });
}

/** Start, stop and delete; the list is read again after each. */
export function useRecordingChanges(projectId: string, environment: Environment) {
  const client = useClient();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: recordingKeys.all(projectId, environment) });
  return {
    start: useMutation({
      ...SHOWN_INLINE,
      mutationFn: (input: StartRecordingInput) => client.recordings.start(projectId, { ...input, environment }),
      onSuccess: refresh,
    }),
    stop: useMutation({
      mutationFn: (recordingId: string) => client.recordings.stop(projectId, recordingId, { environment }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (recordingId: string) => client.recordings.delete(projectId, recordingId, { environment }),
      onSuccess: refresh,
    }),
    /** Fetches the HAR document and hands it to the browser as a file. */
    download: useMutation({
      mutationFn: async (recordingId: string) => {
        const har = await client.recordings.download(projectId, recordingId, { environment });
        saveFile(`${recordingId}.har`, JSON.stringify(har, null, 2));
      },
    }),
  };
}

function saveFile(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // The browser has read it once the click's download began.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
