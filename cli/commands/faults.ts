import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
import { type Environment, FAULT_KINDS, type FaultKind } from '../../sdk/index.js';
import { durationMs, environmentOption, projectOption, wholeNumberUpTo } from '../arguments.js';
import { action } from '../context.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { formatTime } from '../output.js';

/**
 * `2s`, `500ms`, `10m`, `1h`, `1m30s`; a bare number is in `bareUnit`. Answers milliseconds, at most `max` (the API's
 * limit, said here with the flag's units rather than as the API field's).
 */
const parseDuration =
  (bareUnit: 'ms' | 's', max: { ms: number; text: string }) =>
  (value: string): number => {
    const ms = durationMs(value, bareUnit);
    if (!ms) throw new InvalidArgumentError('Give a duration such as 500ms, 2s, 10m or 1h.');
    if (ms > max.ms) throw new InvalidArgumentError(`Give a duration of at most ${max.text}.`);
    return ms;
  };

/**
 * The kinds that wait, as the API has them (server/faults/schemas.ts, DELAYING_KINDS): `--delay` is refused for the
 * others, and required but for webhook.out_of_order, which has a default. Checked here so that the error names the
 * flag, not the API's `delayMs`.
 */
const DELAY_REQUIRED: readonly FaultKind[] = ['webhook.delay', 'api.latency'];
const DELAY_OPTIONAL: readonly FaultKind[] = ['webhook.out_of_order'];

function checkDelay(kind: FaultKind, delay: number | undefined): void {
  if (delay === undefined && DELAY_REQUIRED.includes(kind))
    throw new UsageError(`${kind} needs --delay: how long, e.g. --delay 500ms (at most 60s)`);
  if (delay !== undefined && !DELAY_REQUIRED.includes(kind) && !DELAY_OPTIONAL.includes(kind))
    throw new UsageError(
      `--delay does not apply to ${kind}; it is for ${[...DELAY_REQUIRED, ...DELAY_OPTIONAL].join(', ')}`,
    );
}

const percentOption = (what: string) =>
  new Option('--percent <n>', `${what} (1 to 100, default 100)`).argParser(wholeNumberUpTo(100));
const changedEnvironment = (what: string) =>
  environmentOption(`the environment ${what} (default development; production is refused)`);

export function registerFaultCommands(program: Command, io: CliIo): void {
  const faults = program
    .command('faults')
    .description('Inject faults into an environment’s traffic, to test how your app copes (never production)');

  faults
    .command('list')
    .description('List the faults in force in an environment')
    .addOption(environmentOption('the environment (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: { environment?: Environment; project?: string }) => {
        const environment = flags.environment ?? 'development';
        const list = await ctx.client().faults.list(await ctx.projectId(flags.project), { environment });
        ctx.out.table(
          list,
          list.data,
          [
            { header: 'id', value: (f) => f.id },
            { header: 'kind', value: (f) => f.kind },
            { header: 'percent', value: (f) => `${f.percent}%` },
            { header: 'delay', value: (f) => (f.delayMs === null ? '' : `${f.delayMs} ms`) },
            { header: 'expires', value: (f) => formatTime(f.expiresAt) },
          ],
          `No faults in ${environment}.`,
        );
      }),
    );

  faults
    .command('add')
    .description('Inject a fault until it expires (default in 10 minutes) or is removed')
    .addArgument(new Argument('<kind>', 'what to inject').choices(FAULT_KINDS))
    .addOption(percentOption('the share of deliveries, attempts or requests it applies to'))
    .addOption(
      new Option(
        '--delay <duration>',
        'for webhook.delay and api.latency (required) and webhook.out_of_order (default 3s): e.g. 500ms, 2s; at most 60s',
      ).argParser(parseDuration('ms', { ms: 60_000, text: '60s' })),
    )
    .addOption(
      new Option(
        '--expires <duration>',
        'when it ends by itself, e.g. 30s, 10m, 2h (default 10m, at most 24h)',
      ).argParser(parseDuration('s', { ms: 86_400_000, text: '24h' })),
    )
    .addOption(changedEnvironment('to inject into'))
    .addOption(projectOption())
    .action(
      action(
        io,
        async (
          ctx,
          kind: FaultKind,
          flags: { environment?: Environment; percent?: number; delay?: number; expires?: number; project?: string },
        ) => {
          checkDelay(kind, flags.delay);
          const fault = await ctx.client().faults.add(await ctx.projectId(flags.project), {
            environment: flags.environment ?? 'development',
            kind,
            percent: flags.percent,
            delayMs: flags.delay,
            // Whole seconds, as the API takes them; a shorter duration is still at least one.
            expiresInSeconds: flags.expires === undefined ? undefined : Math.max(1, Math.round(flags.expires / 1000)),
          });
          const delay = fault.delayMs === null ? '' : `, ${fault.delayMs} ms`;
          ctx.out.result(
            fault,
            () =>
              `Injected ${fault.kind} (${fault.percent}%${delay}) into ${fault.environment}: ${fault.id}, until ` +
              `${formatTime(fault.expiresAt)}.`,
          );
        },
      ),
    );

  faults
    .command('remove')
    .description('End one fault now')
    .argument('<faultId>', 'the fault’s id (flt_…)')
    .addOption(changedEnvironment('the fault is in'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, faultId: string, flags: { environment?: Environment; project?: string }) => {
        const environment = flags.environment ?? 'development';
        await ctx.client().faults.remove(await ctx.projectId(flags.project), faultId, { environment });
        ctx.out.line(`Removed fault ${faultId} from ${environment}.`);
      }),
    );

  faults
    .command('clear')
    .description('End every fault of an environment now')
    .addOption(changedEnvironment('to clear'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: { environment?: Environment; project?: string }) => {
        const environment = flags.environment ?? 'development';
        const cleared = await ctx.client().faults.clear(await ctx.projectId(flags.project), { environment });
        ctx.out.result(cleared, () => `Removed ${cleared.removed} fault(s) from ${environment}.`);
      }),
    );

  faults
    .command('drop-sockets')
    .description('Close a share of an environment’s realtime and signaling sockets now (code 4206); clients reconnect')
    .addOption(percentOption('the share of the sockets to close'))
    .addOption(
      new Option('--kind <kind>', 'which sockets (default all)').choices(['realtime', 'signaling', 'all'] as const),
    )
    .addOption(changedEnvironment('whose sockets to drop'))
    .addOption(projectOption())
    .action(
      action(
        io,
        async (
          ctx,
          flags: {
            environment?: Environment;
            percent?: number;
            kind?: 'realtime' | 'signaling' | 'all';
            project?: string;
          },
        ) => {
          const environment = flags.environment ?? 'development';
          const dropped = await ctx.client().faults.dropSockets(await ctx.projectId(flags.project), {
            environment,
            percent: flags.percent,
            kind: flags.kind,
          });
          ctx.out.result(
            dropped,
            () =>
              `Closed ${dropped.closed} socket(s) of ${environment} on this server (code 4206); other servers ` +
              'close their share of theirs.',
          );
        },
      ),
    );
}
