import { readFileSync } from 'node:fs';
import type { ConsoleClient, Environment } from '../../sdk/index.js';
import { startTestServer } from '../start-test-server.js';
import { compareReplay, type ReplayDifference } from './differences.js';
import { type HarDocument, type HarEntry, isWebhookEntry, readHar } from './har-file.js';
import { planReplay } from './plan.js';
import { playPlan } from './run-plan.js';
import type { Pace, ReplayTarget } from './target.js';

/** An existing server's environment to replay against, and a console client signed in there. */
export interface ReplayTargetOptions {
  /** The server, e.g. `http://127.0.0.1:4000`. */
  url: string;
  /** Signed in as a member who may reset the environment and record it (`project:write`). */
  console: ConsoleClient;
  projectId: string;
  /** Default development; production is refused, as by every testing tool. */
  environment?: Environment;
  /** A key of the environment; by default the replay makes one (`switchboard replay`) and revokes it after. */
  apiKey?: string;
}

export interface ReplayOptions {
  /** Where to replay; by default a throw-away server (started on a temporary folder, closed after). */
  target?: ReplayTargetOptions;
  /** Start from this snapshot of the environment instead of an empty one (a reset). */
  snapshot?: string;
  /** `fast` (default): each step as soon as what the recording had before it is in; `recorded`: its pacing too. */
  pace?: Pace;
  /** How long to wait for a frame the recording had received (default 2000 ms). */
  frameWaitMs?: number;
  /** How long to wait for the webhook attempts the recording had made (default 5000 ms). */
  webhookWaitMs?: number;
}

export interface ReplayResult {
  /** True when nothing differs. */
  ok: boolean;
  differences: ReplayDifference[];
  /** What was replayed: REST calls, sockets, frames sent and received, test-clock advances, webhook attempts made. */
  replayed: {
    rest: number;
    sockets: number;
    framesSent: number;
    framesReceived: number;
    clockAdvances: number;
    webhookAttempts: number;
  };
  target: { url: string; projectId: string; environment: Environment; throwAway: boolean; snapshot?: string };
  pace: Pace;
  durationMs: number;
}

export type { ReplayDifference } from './differences.js';

/** The target's webhook attempts, read from the recording the replay keeps of it. */
async function attemptsOf(console: ConsoleClient, projectId: string, recordingId: string, environment: Environment) {
  const har = (await console.recordings.download(projectId, recordingId, { environment })) as unknown as HarDocument;
  return har.log.entries.filter(isWebhookEntry);
}

/** Plays the recording against one prepared environment, recording it meanwhile for the webhooks it makes. */
async function replayInto(
  har: HarDocument,
  target: Required<Omit<ReplayTargetOptions, 'apiKey'>> & { apiKey: string; runDueWebhooks?: () => Promise<void> },
  options: ReplayOptions,
) {
  const { console, projectId, environment } = target;
  if (options.snapshot) await console.snapshots.restore(projectId, options.snapshot, { environment });
  else await console.environments.reset(projectId, { environment });
  await console.environments.resetClock(projectId, { environment });
  const recording = await console.recordings.start(projectId, { environment });
  try {
    const plan = planReplay(har);
    const replayTarget: ReplayTarget = {
      url: target.url,
      apiKey: target.apiKey,
      advanceClock: async (seconds) => {
        await console.environments.advanceClock(projectId, { environment, seconds });
      },
      webhookAttempts: async () => (await attemptsOf(console, projectId, recording.id, environment)).length,
      runDueWebhooks: target.runDueWebhooks,
    };
    const played = await playPlan(plan, replayTarget, {
      pace: options.pace ?? 'fast',
      frameWaitMs: options.frameWaitMs ?? 2000,
      webhookWaitMs: options.webhookWaitMs ?? 5000,
    });
    await console.recordings.stop(projectId, recording.id, { environment });
    const attempts = await attemptsOf(console, projectId, recording.id, environment);
    const sockets = [...played.sockets.values()];
    return {
      differences: compareReplay(har.log.entries, plan, played, attempts),
      replayed: {
        rest: played.answers.size,
        sockets: sockets.length,
        framesSent: plan.steps.filter((s) => s.kind === 'send' && played.sockets.has(s.socket)).length,
        framesReceived: sockets.reduce((sum, s) => sum + s.received.length, 0),
        clockAdvances: plan.steps.filter((s) => s.kind === 'advance').length,
        webhookAttempts: attempts.length,
      },
    };
  } finally {
    await console.recordings.stop(projectId, recording.id, { environment }).catch(() => undefined);
    await console.recordings.delete(projectId, recording.id, { environment }).catch(() => undefined);
  }
}

/** The recorded webhook endpoints (URL and the event types they got), for a throw-away server to register. */
function endpointsOf(entries: HarEntry[]): Map<string, Set<string>> {
  const endpoints = new Map<string, Set<string>>();
  for (const entry of entries.filter(isWebhookEntry)) {
    const types = endpoints.get(entry.request.url) ?? new Set<string>();
    if (entry._webhook?.eventType) types.add(entry._webhook.eventType);
    endpoints.set(entry.request.url, types);
  }
  return endpoints;
}

/**
 * Replays a recording (a HAR file's path, or the parsed document) against a fresh environment and says what came
 * back different (docs/testing-your-app.md#replay). Without a target it starts a throw-away server with an account,
 * a project, a key and the recording's webhook endpoints.
 */
export async function replay(recording: string | object, options: ReplayOptions = {}): Promise<ReplayResult> {
  const har = typeof recording === 'string' ? readHar(readFileSync(recording, 'utf8'), recording) : readHar(recording);
  const started = Date.now();
  const pace = options.pace ?? 'fast';
  if (options.target) {
    const { url, console, projectId } = options.target;
    const environment = options.target.environment ?? 'development';
    if (environment === 'production')
      throw new Error('a replay resets the environment it plays into: production is refused, as by every testing tool');
    let apiKey = options.target.apiKey;
    const made = apiKey ? undefined : await console.keys.create(projectId, { name: 'switchboard replay', environment });
    apiKey ??= made?.key as string;
    try {
      const outcome = await replayInto(har, { url, console, projectId, environment, apiKey }, options);
      return {
        ok: outcome.differences.length === 0,
        ...outcome,
        target: { url, projectId, environment, throwAway: false, snapshot: options.snapshot },
        pace,
        durationMs: Date.now() - started,
      };
    } finally {
      if (made) await console.keys.revoke(projectId, made.id, { environment }).catch(() => undefined);
    }
  }
  if (options.snapshot) throw new Error('a throw-away server has no snapshots: give a target to start from one');
  const server = await startTestServer();
  try {
    const projectId = server.seed.projects.Test.id;
    const console = server.clients.console;
    for (const [url, types] of endpointsOf(har.log.entries))
      await console.webhooks.register(projectId, {
        url,
        environment: 'development',
        events: [...types] as never,
      });
    const outcome = await replayInto(
      har,
      {
        url: server.url,
        console,
        projectId,
        environment: 'development',
        apiKey: server.keys.Test.development,
        runDueWebhooks: () => server.runDueWebhooks(),
      },
      options,
    );
    return {
      ok: outcome.differences.length === 0,
      ...outcome,
      target: { url: server.url, projectId, environment: 'development', throwAway: true },
      pace,
      durationMs: Date.now() - started,
    };
  } finally {
    await server.close();
  }
}
