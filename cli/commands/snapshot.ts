import type { Command } from 'commander';
import { type Environment, type EnvironmentSnapshot, resetCounts } from '../../sdk/index.js';
import { environmentOption, projectOption } from '../arguments.js';
import { action } from '../context.js';
import { CommandError, UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { formatBytes, formatFields, formatTime } from '../output.js';
import { canPrompt, prompt } from '../prompt.js';

type Flags = { environment?: Environment; project?: string };

const inEnvironment = (what: string) =>
  environmentOption(`the environment ${what} (default development; production is refused)`);

/** The kinds a snapshot holds any of, with how many: `Rooms 3 · Messages 120`. */
const holding = (counts: EnvironmentSnapshot['counts']) => {
  const some = resetCounts(counts).filter(([, count]) => count > 0);
  return some.length
    ? some.map(([label, count]) => `${label} ${count.toLocaleString('en-US')}`).join(' · ')
    : 'nothing';
};

export function registerSnapshotCommands(program: Command, io: CliIo): void {
  const snapshot = program
    .command('snapshot')
    .description(
      'Save and restore named snapshots of an environment’s runtime data (what `env reset` removes), never production',
    );

  snapshot
    .command('save')
    .description('Save what the environment holds now under a name')
    .argument('<name>', 'letters, digits, dots, dashes or underscores (at most 64)')
    .option('--replace', 'replace a snapshot of that name')
    .addOption(inEnvironment('to save'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, name: string, flags: Flags & { replace?: boolean }) => {
        const saved = await ctx.client().snapshots.save(await ctx.projectId(flags.project), {
          environment: flags.environment ?? 'development',
          name,
          replace: flags.replace,
        });
        ctx.out.result(
          saved,
          () =>
            `Saved ${saved.environment} as ${saved.name} (${formatBytes(saved.sizeBytes)}): ${holding(saved.counts)}.`,
        );
      }),
    );

  snapshot
    .command('list')
    .description('List the snapshots of an environment')
    .addOption(inEnvironment('whose snapshots to list'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, flags: Flags) => {
        const environment = flags.environment ?? 'development';
        const list = await ctx.client().snapshots.list(await ctx.projectId(flags.project), { environment });
        ctx.out.table(
          list,
          list.data,
          [
            { header: 'name', value: (s) => s.name },
            { header: 'saved', value: (s) => formatTime(s.createdAt) },
            { header: 'by', value: (s) => s.createdBy ?? '' },
            { header: 'size', value: (s) => formatBytes(s.sizeBytes) },
            { header: 'holds', value: (s) => holding(s.counts) },
          ],
          `No snapshots of ${environment}.`,
        );
      }),
    );

  snapshot
    .command('restore')
    .description('Replace the environment’s runtime data with a snapshot’s, and close its sockets as `env reset` does')
    .argument('<name>', 'the snapshot')
    .addOption(inEnvironment('to restore into (required)').makeOptionMandatory())
    .option('--yes', 'do not ask for confirmation (required without a terminal)')
    .addOption(projectOption())
    .action(
      action(io, async (ctx, name: string, flags: Flags & { environment: Environment; yes?: boolean }) => {
        const client = ctx.client();
        const projectId = await ctx.projectId(flags.project);
        const { environment } = flags;
        if (!flags.yes) {
          if (!canPrompt(ctx.io)) throw new UsageError('--yes is required when no terminal is attached to confirm on');
          const project = await client.projects.get(projectId);
          const answer = await prompt(
            ctx.io,
            `Restore ${name} into ${environment} of ${project.name} (${project.id})? What ${environment} holds now ` +
              'is deleted, as by `env reset`, and its sockets closed. [y/N] ',
          );
          if (!/^y(es)?$/i.test(answer)) throw new CommandError('not confirmed: nothing was restored');
        }
        const restored = await client.snapshots.restore(projectId, name, { environment });
        ctx.out.result(restored, () =>
          [
            `Restored ${restored.snapshot} into ${restored.environment} of ${projectId}.`,
            formatFields([
              ['  Removed', holding(restored.removed)],
              ['  Restored', holding(restored.restored)],
            ]),
          ].join('\n'),
        );
      }),
    );

  snapshot
    .command('delete')
    .description('Delete a snapshot; the environment is left as it is')
    .argument('<name>', 'the snapshot')
    .addOption(inEnvironment('the snapshot is of'))
    .addOption(projectOption())
    .action(
      action(io, async (ctx, name: string, flags: Flags) => {
        const environment = flags.environment ?? 'development';
        await ctx.client().snapshots.delete(await ctx.projectId(flags.project), name, { environment });
        ctx.out.line(`Deleted snapshot ${name} of ${environment}.`);
      }),
    );
}
