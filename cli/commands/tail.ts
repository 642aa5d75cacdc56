import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import { backoffDelay } from '../../sdk/backoff.js';
import {
  type Environment,
  type LiveEvent,
  type LiveEventStream,
  NETWORK_ERROR,
  SwitchboardError,
} from '../../sdk/index.js';
import { environmentOption, projectOption } from '../arguments.js';
import { action, type CliContext } from '../context.js';
import { untilInterrupted } from '../interrupt.js';
import type { CliIo } from '../io.js';
import { formatTime } from '../output.js';

/** Waits between reconnections: from 1 s, doubling, at most 30 s. */
const RECONNECT = { initialDelayMs: 1000, maxDelayMs: 30_000 };

/** `key=value` for the ids and short scalars of an event's data, two levels deep; spaced values quoted. */
function summary(data: unknown): string {
  const parts: string[] = [];
  const walk = (value: unknown, prefix: string) => {
    if (value === null || typeof value !== 'object') {
      const text = String(value);
      if (value !== null && value !== undefined && text.length <= 64)
        parts.push(`${prefix}=${/\s/.test(text) ? JSON.stringify(text) : text}`);
      return;
    }
    if (Array.isArray(value) || prefix.split('.').length > 2) return;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) walk(v, prefix ? `${prefix}.${key}` : key);
  };
  walk(data, '');
  return parts.join(' ');
}

/** The stream went away without an API error: worth opening again. */
const isDrop = (err: unknown) => err instanceof SwitchboardError && err.code === NETWORK_ERROR;

/**
 * Prints the live events of one environment until interrupted. A stream that drops (or that the
 * server ends, e.g. on restart) is opened again with backoff; events in between are not replayed.
 * An API error (signed out, no access) ends the command, as does failing to connect the first time.
 */
async function tail(ctx: CliContext, projectId: string, environment: Environment, stopped: AbortSignal) {
  const client = ctx.client();
  const open = () => client.observability.events(projectId, { environment, signal: stopped });
  const print = (event: LiveEvent) =>
    ctx.out.event(event, () => `${formatTime(event.at)}  ${event.type}  ${summary(event.data)}`.trimEnd());

  /** A new stream, after waiting; undefined once interrupted. */
  async function reopen(): Promise<LiveEventStream | undefined> {
    let why = 'Connection lost';
    for (let failures = 0; ; failures++) {
      const delayMs = backoffDelay(failures, RECONNECT);
      ctx.out.note(`${why}; reconnecting in ${Math.ceil(delayMs / 1000)} s…`);
      await sleep(delayMs, undefined, { signal: stopped }).catch(() => {});
      if (stopped.aborted) return undefined;
      try {
        const stream = await open();
        ctx.out.note('Reconnected (events in between are not shown).');
        return stream;
      } catch (err) {
        if (stopped.aborted) return undefined;
        if (!isDrop(err)) throw err;
        why = 'Could not reconnect';
      }
    }
  }

  let stream: LiveEventStream | undefined;
  try {
    stream = await open();
  } catch (err) {
    if (stopped.aborted) return;
    throw err;
  }
  ctx.out.note(`Tailing ${environment} events of ${projectId} (metadata only); Ctrl-C stops.`);
  while (stream) {
    try {
      for await (const event of stream) print(event);
    } catch (err) {
      if (!isDrop(err)) throw err;
    }
    stream = stopped.aborted ? undefined : await reopen();
  }
}

export function registerTailCommand(program: Command, io: CliIo): void {
  program
    .command('tail')
    .description(
      'Show the live events of one environment until Ctrl-C: messages (metadata only, never their text), ' +
        'connections, errors, webhook deliveries',
    )
    .addOption(environmentOption('whose events to show (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: { environment?: Environment; project?: string }) => {
        const projectId = await ctx.projectId(flags.project);
        await untilInterrupted((stopped) => tail(ctx, projectId, flags.environment ?? 'development', stopped));
      }),
    );
}
