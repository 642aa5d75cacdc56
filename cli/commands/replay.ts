import { type Command, InvalidArgumentError, Option } from 'commander';
import type { Environment } from '../../sdk/index.js';
import { durationMs, environmentOption, projectOption } from '../arguments.js';
import { action } from '../context.js';
import { CommandError } from '../errors.js';
import type { CliIo } from '../io.js';

type Flags = {
  environment?: Environment;
  project?: string;
  snapshot?: string;
  pace: 'recorded' | 'fast';
  webhookWait?: number;
};

/** `500ms`, `5s`, `1m`: at most 10 minutes. */
function parseWait(value: string): number {
  const ms = durationMs(value);
  if (ms === undefined || ms > 600_000) throw new InvalidArgumentError('Give a duration up to 10m, e.g. 500ms or 5s.');
  return ms;
}

export function registerReplayCommand(program: Command, io: CliIo): void {
  program
    .command('replay')
    .description(
      'Replay a recording (a HAR file of `record download`) against a fresh environment and show what came back ' +
        'different; exits 1 when something did. With --url (or SWITCHBOARD_URL), into that server’s environment, ' +
        'reset first (or restored from --snapshot), as the signed-in user; else on a throw-away server it starts',
    )
    .argument('<file>', 'the recording, a HAR file')
    .addOption(
      new Option('--pace <pace>', 'fast: each step once what preceded it is in; recorded: also at the recorded times')
        .choices(['recorded', 'fast'])
        .default('fast'),
    )
    .addOption(
      new Option(
        '--webhook-wait <duration>',
        'how long to wait for webhook attempts the recording had made by then, e.g. 2s (default 5s)',
      ).argParser(parseWait),
    )
    .option('--snapshot <name>', 'start from this snapshot of the environment instead of an empty one (with --url)')
    .addOption(
      environmentOption('the environment to replay into, with --url (default development; production is refused)'),
    )
    .addOption(projectOption())
    .action(
      action(io, async (ctx, file: string, flags: Flags) => {
        // The engine starts servers: loaded only by this command, as `serve` loads the server.
        const { replay, formatReplay } = await import('../../testing/index.js');
        const againstServer = ctx.options.url !== undefined || Boolean(io.env.SWITCHBOARD_URL);
        if (!againstServer && (flags.snapshot || flags.project || flags.environment))
          throw new CommandError(
            '--snapshot, --project and --environment name a server’s environment: give its --url (a throw-away ' +
              'server has one project, empty)',
          );
        const result = await replay(file, {
          pace: flags.pace,
          snapshot: flags.snapshot,
          webhookWaitMs: flags.webhookWait,
          target: againstServer
            ? {
                url: ctx.url,
                console: ctx.client(),
                projectId: await ctx.projectId(flags.project),
                environment: flags.environment ?? 'development',
              }
            : undefined,
        });
        ctx.out.result(result, () => formatReplay(result));
        if (!result.ok)
          throw new CommandError(
            `the replay differs from the recording (${result.differences.length} difference` +
              `${result.differences.length === 1 ? '' : 's'})`,
          );
      }),
    );
}
