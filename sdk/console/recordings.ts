import type { Transport } from '../transport.js';
import type { Environment, HarFile, Recording, RecordingList, StartRecordingInput } from '../types.js';

/**
 * Recordings of an environment's traffic, downloaded as HAR 1.2: REST calls with its keys and tokens, realtime and
 * signaling frames, webhook attempts, with wall and test-clock time and secrets replaced by `[redacted]`. A recording
 * runs until stopped or a limit ends it (`maxBytes`, default 10 MiB; `maxDurationSeconds`, default 15 minutes).
 * Production is refused (403 `SERVICE_PRODUCTION_ENVIRONMENT`) unless the server allows it. Starting, stopping and
 * deleting take `project:write` and are audited.
 */
export class RecordingsResource {
  constructor(private readonly transport: Transport) {}

  /** Starts recording the environment; 409 `SERVICE_RECORDING_IN_PROGRESS` if it is being recorded already. */
  start(projectId: string, input: StartRecordingInput & { environment: Environment }): Promise<Recording> {
    const { environment, ...body } = input;
    return this.transport.call('startEnvironmentRecording', {
      params: { id: projectId },
      query: { environment },
      body,
    });
  }

  /** Ends it on every server; answers the recording (`endReason: 'stopped'`, or the limit that ended it before). */
  stop(projectId: string, recordingId: string, options: { environment: Environment }): Promise<Recording> {
    return this.transport.call('stopEnvironmentRecording', {
      params: { id: projectId, recordingId },
      query: { environment: options.environment },
    });
  }

  /** The environment's recordings, newest first. */
  list(projectId: string, options: { environment: Environment }): Promise<RecordingList> {
    return this.transport.call('listEnvironmentRecordings', {
      params: { id: projectId },
      query: { environment: options.environment },
    });
  }

  get(projectId: string, recordingId: string, options: { environment: Environment }): Promise<Recording> {
    return this.transport.call('getEnvironmentRecording', {
      params: { id: projectId, recordingId },
      query: { environment: options.environment },
    });
  }

  /** The recording as a HAR 1.2 document (what it took so far, if it is still running). */
  download(projectId: string, recordingId: string, options: { environment: Environment }): Promise<HarFile> {
    return this.transport.call('downloadEnvironmentRecording', {
      params: { id: projectId, recordingId },
      query: { environment: options.environment },
    });
  }

  /** Deletes it with what it took; a running one stops. */
  delete(projectId: string, recordingId: string, options: { environment: Environment }): Promise<void> {
    return this.transport.call('deleteEnvironmentRecording', {
      params: { id: projectId, recordingId },
      query: { environment: options.environment },
    });
  }
}
