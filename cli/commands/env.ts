import type { Command } from 'commander';
import { type Environment, resetCounts } from '../../sdk/index.js';
import { environmentOption, projectOption } from '../arguments.js';
import { action } from '../context.js';
import { CommandError, UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { formatFields } from '../output.js';
import { canPrompt, prompt } from '../prompt.js';

export function registerEnvCommands(program: Command, io: CliIo): void {
  const env = program.command('env').description('Tools for testing your app against an environment');

  env
    .command('reset')
    .description(
      'Empty an environment of its runtime data (rooms, chat, attachments, live streams, webhook deliveries, ' +
        'observability data) and close its sockets; keys, webhook endpoints and members stay. Never production',
    )
    .addOption(environmentOption('the environment to reset (required; production is refused)').makeOptionMandatory())
    .option('--yes', 'do not ask for confirmation (required without a terminal)')
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: { environment: Environment; yes?: boolean; project?: string }) => {
        const client = ctx.client();
        const projectId = await ctx.projectId(flags.project);
        const { environment } = flags;
        // Asked on a terminal; a script says --yes (without either, nothing is sent).
        if (!flags.yes) {
          if (!canPrompt(ctx.io)) throw new UsageError('--yes is required when no terminal is attached to confirm on');
          const project = await client.projects.get(projectId);
          const answer = await prompt(
            ctx.io,
            `Reset ${environment} of ${project.name} (${project.id})? Its rooms, chat, attachments, live streams, ` +
              'webhook deliveries and observability data are deleted and its sockets closed; keys, webhook ' +
              'endpoints and members stay. [y/N] ',
          );
          if (!/^y(es)?$/i.test(answer)) throw new CommandError('not confirmed: nothing was reset');
        }
        const reset = await client.environments.reset(projectId, { environment });
        ctx.out.result(reset, () =>
          [
            `Reset ${reset.environment} of ${projectId}. Removed:`,
            formatFields(
              resetCounts(reset.removed).map(([label, count]) => [`  ${label}`, count.toLocaleString('en-US')]),
            ),
            'Kept: API keys, webhook endpoints (failure counts cleared), members and the audit log.',
          ].join('\n'),
        );
      }),
    );
}
