import { writeFileSync } from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { Environment, Recording } from '../../sdk/index.js';
import { durationMs, environmentOption, projectOption } from '../arguments.js';
import { action } from '../context.js';
import { CommandError } from '../errors.js';
import type { CliIo } from '../io.js';
import { formatBytes, formatTime } from '../output.js';

/** The API's limits (server/recordings/schemas.ts), said with the flags' units. */
const MAX_BYTES = 100 * 1024 * 1024;
const MAX_SECONDS = 24 * 3600;
const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 * 1024 };

/** `512KB`, `10MB`, `2000000` (bytes): at least 1 KB, at most 100 MB. */
function parseSize(value: string): number {
  const match = /^(\d+)\s*(b|kb|mb)?$/i.exec(value.trim());
  const bytes = match ? Number(match[1]) * SIZE_UNITS[(match[2] ?? '').toLowerCase()] : Number.NaN;
  if (!(bytes >= 1024 && bytes <= MAX_BYTES))
    throw new InvalidArgumentError('Give a size from 1KB to 100MB, e.g. 10MB.');
  return bytes;
}

/** `30s`, `15m`, `2h`: whole seconds, at most 24 h. */
function parseSeconds(value: string): number {
  const ms = durationMs(value);
  if (ms === undefined || ms < 1000 || ms > MAX_SECONDS * 1000)
    throw new InvalidArgumentError('Give a duration from 1s to 24h, e.g. 30s, 15m or 2h.');
  return Math.round(ms / 1000);
}

const state = (r: Recording) =>
  r.state === 'recording' ? 'recording' : r.endReason === 'stopped' ? 'stopped' : `ended (${r.endReason})`;

type Flags = { environment?: Environment; project?: string };

export function registerRecordCommands(program: Command, io: CliIo): void {
  const record = program
    .command('record')
    .description('Record an environment’s traffic (REST, realtime, signaling, webhooks) to a HAR file');

  record
    .command('start')
    .description('Start recording an environment until `record stop` or a limit (default 10MB or 15m)')
    .addOption(new Option('--max-size <size>', 'end it at this size, e.g. 50MB (1KB to 100MB)').argParser(parseSize))
    .addOption(
      new Option('--max-duration <duration>', 'end it after this long, e.g. 30m (1s to 24h)').argParser(parseSeconds),
    )
    .addOption(environmentOption('the environment to record (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: Flags & { maxSize?: number; maxDuration?: number }) => {
        const started = await ctx.client().recordings.start(await ctx.projectId(flags.project), {
          environment: flags.environment ?? 'development',
          maxBytes: flags.maxSize,
          maxDurationSeconds: flags.maxDuration,
        });
        ctx.out.result(
          started,
          () =>
            `Recording ${started.environment}: ${started.id}, until \`switchboard record stop\`, ` +
            `${formatBytes(started.maxBytes)} or ${started.maxDurationSeconds} s.`,
        );
      }),
    );

  record
    .command('stop')
    .description('Stop a recording (by default the environment’s running one)')
    .argument('[recordingId]', 'the recording’s id (rec_…)')
    .addOption(environmentOption('the environment (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, recordingId: string | undefined, flags: Flags) => {
        const environment = flags.environment ?? 'development';
        const projectId = await ctx.projectId(flags.project);
        const client = ctx.client();
        let id = recordingId;
        if (!id) {
          const running = (await client.recordings.list(projectId, { environment })).data.find(
            (r) => r.state === 'recording',
          );
          if (!running) throw new CommandError(`${environment} is not being recorded`);
          id = running.id;
        }
        const stopped = await client.recordings.stop(projectId, id, { environment });
        ctx.out.result(
          stopped,
          () =>
            `${stopped.id} ${state(stopped)}: ${stopped.entries} entries, ${formatBytes(stopped.bytes)}. ` +
            `Download it: switchboard record download ${stopped.id}`,
        );
      }),
    );

  record
    .command('list')
    .description('List an environment’s recordings, newest first')
    .addOption(environmentOption('the environment (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: Flags) => {
        const environment = flags.environment ?? 'development';
        const list = await ctx.client().recordings.list(await ctx.projectId(flags.project), { environment });
        ctx.out.table(
          list,
          list.data,
          [
            { header: 'id', value: (r) => r.id },
            { header: 'state', value: state },
            { header: 'entries', value: (r) => String(r.entries) },
            { header: 'size', value: (r) => formatBytes(r.bytes) },
            { header: 'started', value: (r) => formatTime(r.startedAt) },
          ],
          `No recordings in ${environment}.`,
        );
      }),
    );

  record
    .command('download')
    .description('Write a recording as a HAR 1.2 file, which browsers’ developer tools open')
    .argument('<recordingId>', 'the recording’s id (rec_…)')
    .option('-o, --output <file>', 'where to write it (default <recordingId>.har; - for stdout)')
    .addOption(environmentOption('the environment (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, recordingId: string, flags: Flags & { output?: string }) => {
        const environment = flags.environment ?? 'development';
        const har = await ctx
          .client()
          .recordings.download(await ctx.projectId(flags.project), recordingId, { environment });
        const text = `${JSON.stringify(har, null, 2)}\n`;
        if (flags.output === '-') {
          io.stdout.write(text);
          return;
        }
        const file = flags.output ?? `${recordingId}.har`;
        writeFileSync(file, text);
        ctx.out.result(
          { file, entries: har.log.entries.length },
          () => `Wrote ${file} (${har.log.entries.length} entries).`,
        );
      }),
    );
}
