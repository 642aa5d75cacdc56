import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
import { type Environment, FAULT_KINDS, type FaultKind } from '../../sdk/index.js';
import { durationMs, environmentOption, projectOption, wholeNumberUpTo } from '../arguments.js';
import { action } from '../context.js';
import type { CliIo } from '../io.js';
import { formatTime } from '../output.js';

/** `2s`, `500ms`, `10m`, `1h`, `1m30s`; a bare number is in `bareUnit`. Answers milliseconds. */
const parseDuration =
  (bareUnit: 'ms' | 's') =>
  (value: string): number => {
    const ms = durationMs(value, bareUnit);
    if (!ms) throw new InvalidArgumentError('Give a duration such as 500ms, 2s, 10m or 1h.');
    return ms;
  };

const percentOption = (what: string) =>
  new Option('--percent <n>', `${what} (1 to 100, default 100)`).argParser(wholeNumberUpTo(100));
const changedEnvironment = (what: string) =>
  environmentOption(`the environment ${what} (required; production is refused)`).makeOptionMandatory();

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
        const list = await ctx.client().faults.list(ctx.projectId(flags.project), { environment });
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
      ).argParser(parseDuration('ms')),
    )
    .addOption(
      new Option(
        '--expires <duration>',
        'when it ends by itself, e.g. 30s, 10m, 2h (default 10m, at most 24h)',
      ).argParser(parseDuration('s')),
    )
    .addOption(changedEnvironment('to inject into'))
    .addOption(projectOption())
    .action(
      action(
        io,
        async (
          ctx,
          kind: FaultKind,
          flags: { environment: Environment; percent?: number; delay?: number; expires?: number; project?: string },
        ) => {
          const fault = await ctx.client().faults.add(ctx.projectId(flags.project), {
            environment: flags.environment,
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
      action(io, async (ctx, faultId: string, flags: { environment: Environment; project?: string }) => {
        await ctx.client().faults.remove(ctx.projectId(flags.project), faultId, { environment: flags.environment });
        ctx.out.line(`Removed fault ${faultId} from ${flags.environment}.`);
      }),
    );

  faults
    .command('clear')
    .description('End every fault of an environment now')
    .addOption(changedEnvironment('to clear'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: { environment: Environment; project?: string }) => {
        const cleared = await ctx
          .client()
          .faults.clear(ctx.projectId(flags.project), { environment: flags.environment });
        ctx.out.result(cleared, () => `Removed ${cleared.removed} fault(s) from ${flags.environment}.`);
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
            environment: Environment;
            percent?: number;
            kind?: 'realtime' | 'signaling' | 'all';
            project?: string;
          },
        ) => {
          const dropped = await ctx.client().faults.dropSockets(ctx.projectId(flags.project), {
            environment: flags.environment,
            percent: flags.percent,
            kind: flags.kind,
          });
          ctx.out.result(
            dropped,
            () =>
              `Closed ${dropped.closed} socket(s) of ${flags.environment} on this server (code 4206); other servers ` +
              'close their share of theirs.',
          );
        },
      ),
    );
}
