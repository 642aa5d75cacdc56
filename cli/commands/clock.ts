import { type Command, InvalidArgumentError } from 'commander';
import type { Environment, EnvironmentClock } from '../../sdk/index.js';
import { durationMs, environmentOption, projectOption } from '../arguments.js';
import { action } from '../context.js';
import type { CliIo } from '../io.js';
import { formatDuration, formatFields, formatTime } from '../output.js';

/** The most one advance may take, as the API has it: 400 days. */
const MAX_ADVANCE_SECONDS = 400 * 86_400;

/**
 * `90s`, `15m`, `2h`, `1d`, `1h30m` (cli/arguments.ts, in whole seconds), in all from 1 s to 400 days. Anything else
 * (`2 hours`, `1.5h`, `30m2h`, `0s`) is refused: commander makes it a usage error.
 */
export function parseDuration(value: string): number {
  const ms = durationMs(value);
  if (ms === undefined || ms % 1000 !== 0)
    throw new InvalidArgumentError('Give a duration such as 90s, 15m, 2h, 1d or 1h30m.');
  const seconds = ms / 1000;
  if (seconds < 1 || seconds > MAX_ADVANCE_SECONDS)
    throw new InvalidArgumentError('Give a duration from 1s to 400 days (400d).');
  return seconds;
}

/** How the clock reads, on a few lines. */
function describeClock(clock: EnvironmentClock): string {
  const ahead =
    clock.offsetMs === 0 ? 'real time' : `${formatDuration(Math.floor(clock.offsetMs / 1000))} ahead of real time`;
  return formatFields([
    ['Now', formatTime(clock.now)],
    ['Runs', ahead],
    ['Advanced at', clock.advancedAt === null ? '—' : formatTime(clock.advancedAt)],
  ]);
}

export function registerClockCommands(program: Command, io: CliIo): void {
  const clock = program
    .command('clock')
    .description('The test clock of an environment: move development or staging forward in time, read it, reset it');
  type Flags = { environment?: Environment; project?: string };

  clock
    .command('show')
    .description('Show the environment’s time and how far ahead of real time it runs')
    .addOption(environmentOption('the environment (default development)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: Flags) => {
        const projectId = await ctx.projectId(flags.project);
        const read = await ctx
          .client()
          .environments.clock(projectId, { environment: flags.environment ?? 'development' });
        ctx.out.result(read, () =>
          [`The clock of ${read.environment} in ${projectId}:`, describeClock(read)].join('\n'),
        );
      }),
    );

  clock
    .command('advance')
    .description(
      'Move the clock forward: due webhook retries go out at once, tokens past their expiry are refused, typing ' +
        'indicators lapse, metric windows move on. Never production',
    )
    .argument('<duration>', 'how far: 90s, 15m, 2h, 1d, 1h30m (at most 400d)', parseDuration)
    .addOption(environmentOption('the environment (default development; production is refused)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, seconds: number, flags: Flags) => {
        const projectId = await ctx.projectId(flags.project);
        const moved = await ctx
          .client()
          .environments.advanceClock(projectId, { environment: flags.environment ?? 'development', seconds });
        ctx.out.result(moved, () =>
          [
            `Advanced the clock of ${moved.environment} in ${projectId} by ${formatDuration(seconds)}.`,
            describeClock(moved),
          ].join('\n'),
        );
      }),
    );

  clock
    .command('reset')
    .description('Put the environment back on real time (what was stamped in its future stays so). Never production')
    .addOption(environmentOption('the environment (default development; production is refused)'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: Flags) => {
        const projectId = await ctx.projectId(flags.project);
        const reset = await ctx
          .client()
          .environments.resetClock(projectId, { environment: flags.environment ?? 'development' });
        ctx.out.result(reset, () =>
          [`The clock of ${reset.environment} in ${projectId} is back on real time.`, describeClock(reset)].join('\n'),
        );
      }),
    );
}
