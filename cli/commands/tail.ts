import type { Command } from 'commander';
import type { Environment } from '../../sdk/index.js';
import { environmentOption, projectOption } from '../arguments.js';
import { action } from '../context.js';
import type { CliIo } from '../io.js';
import { formatTime } from '../output.js';
import { withTemporaryEndpoint } from './webhooks.js';

/** Message content never reaches the terminal: `text` fields are dropped, wherever they are. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([key]) => key !== 'text')
      .map(([key, v]) => [key, redact(v)]),
  );
}

/** `key=value` for the ids and short scalars of an event's data, one level deep into objects. */
function summary(data: unknown): string {
  const parts: string[] = [];
  const walk = (value: unknown, prefix: string) => {
    if (value === null || typeof value !== 'object') {
      if (value !== null && value !== undefined && String(value).length <= 64) parts.push(`${prefix}=${String(value)}`);
      return;
    }
    if (Array.isArray(value) || prefix.split('.').length > 2) return;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) walk(v, prefix ? `${prefix}.${key}` : key);
  };
  walk(redact(data), '');
  return parts.join(' ');
}

export function registerTailCommand(program: Command, io: CliIo): void {
  program
    .command('tail')
    .description(
      'Show the events of one environment live, until Ctrl-C (message content is never shown: metadata only)',
    )
    .addOption(environmentOption('whose events to show (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: { environment?: Environment; project?: string }) => {
        const environment = flags.environment ?? 'development';
        await withTemporaryEndpoint(
          ctx,
          { environment, project: flags.project },
          ({ webhookId }) =>
            ctx.out.note(`Tailing ${environment} events (temporary webhook ${webhookId}); Ctrl-C stops.`),
          async (event) => {
            const data = (event.payload as { data?: unknown }).data;
            if (ctx.out.json)
              ctx.io.stdout.write(
                `${JSON.stringify({ eventId: event.eventId, type: event.eventType, data: redact(data) })}\n`,
              );
            else
              ctx.out.line(`${formatTime(new Date().toISOString())}  ${event.eventType}  ${summary(data)}`.trimEnd());
          },
        );
      }),
    );
}
